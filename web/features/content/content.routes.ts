import { definePage } from 'web/lib/router/page';
import blogListLoader from 'web/features/content/blog-list.loader';
import contentLoader from 'web/features/content/content.loader';
import detailLoader from 'web/features/content/detail.loader';
import exploreLoader from 'web/features/content/explore.loader';
import mediaLoader from 'web/features/content/media.loader';
import notFoundLoader from 'web/features/content/not-found.loader';
import postLoader from 'web/features/content/post.loader';

/** /blog, /category/{tag} and /month/{YYYY-MM}: one page and one loader, told apart by the route's parameter. */
export const blog = definePage({
  id: 'blog',
  path: '/blog',
  page: () => import('web/features/content/blog-list.page'),
  loader: blogListLoader,
  sections: ['content'],
  cache: true,
  query: ['query', 'page'],
  sitemap: 'always',
});

export const post = definePage({
  id: 'post',
  path: '/blog/*slug',
  page: () => import('web/features/content/post.page'),
  loader: postLoader,
  sections: ['content'],
  cache: true,
  sample: '/blog/2026/search-every-guide',
});

export const category = definePage({
  id: 'category',
  path: '/category/:tag',
  page: () => import('web/features/content/blog-list.page'),
  loader: blogListLoader,
  sections: ['content'],
  cache: true,
  query: ['page'],
  sample: '/category/tips',
});

export const month = definePage({
  id: 'month',
  path: '/month/:month',
  page: () => import('web/features/content/blog-list.page'),
  loader: blogListLoader,
  sections: ['content'],
  cache: true,
  query: ['page'],
  sample: '/month/2026-11',
});

/** Old post addresses: a redirect to /blog/{slug}, or the 404 page. */
export const detail = definePage({ id: 'detail', path: '/detail/:slug', loader: detailLoader, sections: ['content'], sample: '/detail/hints-first' });

export const faq = definePage({
  id: 'faq',
  path: '/faq',
  page: () => import('web/features/content/faq.page'),
  cache: true,
  sitemap: 'always',
});

export const download = definePage({
  id: 'download',
  path: '/download',
  page: () => import('web/features/content/download.page'),
  cache: true,
  sitemap: 'always',
});

export const media = definePage({
  id: 'media',
  path: '/media',
  page: () => import('web/features/content/media.page'),
  loader: mediaLoader,
  sections: ['content'],
  cache: true,
  sitemap: 'always',
});

export const explore = definePage({
  id: 'explore',
  path: '/explore',
  page: () => import('web/features/content/explore.page'),
  loader: exploreLoader,
  sections: ['content', 'levels'],
  cache: true,
  sitemap: 'always',
});

/** Any content page by slug; last before the catch-all. Its sitemap entries come from the content itself. */
export const contentPage = definePage({
  id: 'page',
  path: '/:slug',
  page: () => import('web/features/content/content.page'),
  loader: contentLoader,
  sections: ['content'],
  cache: true,
  sample: '/terms-of-service',
});

/** Every other path: the 404 page. */
export const notFound = definePage({ id: 'not-found', path: '*', loader: notFoundLoader, sample: '/no-such-page' });
