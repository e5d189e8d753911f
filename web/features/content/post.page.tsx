import { formatDate } from 'src/contracts/dates';
import { Breadcrumbs } from 'web/components/level-bits';
import { TagLink } from 'web/components/post-list';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useLoaderData } from 'web/lib/router/router';
import { FeedLink } from 'web/features/content/feed-link';
import type loader from 'web/features/content/post.loader';

/** A blog post: /blog/{slug}. */
export default function PostPage() {
  const post = useLoaderData<typeof loader>();
  const { t, tag } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={post.title} description={post.description} />
      <FeedLink />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.blog'), to: '/blog' }, { label: post.title }]} />
      <article className="mt-6">
        <p className="text-sm text-gray-500 dark:text-gray-400">
          <time dateTime={post.publishedAt}>{formatDate(post.publishedAt, tag)}</time>
        </p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">{post.title}</h1>
        {post.tags.length > 0 && (
          <p className="mt-3 flex flex-wrap gap-2">
            {post.tags.map((tag) => (
              <TagLink key={tag} tag={tag} />
            ))}
          </p>
        )}
        <div className="prose-content mt-8" dangerouslySetInnerHTML={{ __html: post.html }} />
      </article>
    </main>
  );
}
