import type { FormEvent } from 'react';
import { formatMonth } from 'src/contracts/dates';
import { Icon } from 'web/components/icons';
import { Breadcrumbs } from 'web/components/level-bits';
import { PageSearchForm } from 'web/components/page-search-form';
import { PostList } from 'web/components/post-list';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useLoaderData, useNavigate, usePage } from 'web/lib/router/router';
import { FeedLink } from 'web/features/content/feed-link';
import type loader from 'web/features/content/blog-list.loader';

function withPage(path: string, query: string | undefined, page: number) {
  const params = new URLSearchParams();
  if (query) params.set('query', query);
  if (page > 1) params.set('page', String(page));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** /blog, /category/{tag} and /month/{YYYY-MM}. */
export default function BlogListPage() {
  const { list, scope } = useLoaderData<typeof loader>();
  const { pathname } = new URL(usePage().url, 'http://x');
  const { t, tag } = usePageI18n();
  const heading =
    scope.kind === 'tag'
      ? t('blog.tagged', { tag: scope.tag })
      : scope.kind === 'month'
        ? t('blog.month', { month: formatMonth(scope.month, tag) })
        : t('blog.latest');
  const home = { label: t('menu.home'), to: '/' };
  const navigate = useNavigate();
  // With JavaScript the search navigates in place; without, the form is a plain GET the server answers.
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = String(new FormData(event.currentTarget).get('query') ?? '').trim();
    void navigate(withPage('/blog', words || undefined, 1));
  };
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={scope.kind === 'all' ? t('menu.blog') : heading} description={t('blog.seoDescription')} />
      <FeedLink />
      <Breadcrumbs items={scope.kind === 'all' ? [home, { label: t('menu.blog') }] : [home, { label: t('menu.blog'), to: '/blog' }, { label: heading }]} />
      <div className="mt-6 flex items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{heading}</h1>
        <a href="/blog/feed.xml" className="inline-flex items-center gap-1 text-sm font-medium text-gray-500 hover:text-primary-700 dark:text-gray-400">
          <Icon name="bell" className="size-4" /> {t('blog.feed')}
        </a>
      </div>
      {scope.kind === 'all' && (
        <PageSearchForm
          landmark={t('blog.search')}
          id="blog-query"
          action="/blog"
          name="query"
          value={list.query.query ?? ''}
          placeholder={t('blog.search')}
          onSearch={onSearch}
        />
      )}
      <PostList list={list} hrefFor={(page) => withPage(pathname, list.query.query, page)} />
    </main>
  );
}
