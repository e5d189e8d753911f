import { PageLinks } from 'web/components/page-links';
import { formatDate } from 'src/contracts/dates';
import type { PostListData } from 'src/contracts/content';
import { usePageI18n } from 'web/i18n/page-messages';
import { Link } from 'web/lib/router/router';

export function TagLink({ tag }: { tag: string }) {
  return (
    <Link
      to={`/category/${tag}`}
      className="rounded-full bg-gray-100 px-2.5 py-0.5 text-xs font-medium text-gray-700 hover:bg-primary-50 hover:text-primary-800 dark:bg-gray-800 dark:text-gray-300 dark:hover:bg-primary-950 dark:hover:text-primary-300"
    >
      #{tag}
    </Link>
  );
}

/** Posts newest first, with pages; `hrefFor(page)` builds the link of another page of the same list. */
export function PostList({ list, hrefFor }: { list: PostListData; hrefFor: (page: number) => string }) {
  const { t, tag } = usePageI18n();
  if (!list.posts.length) {
    return (
      <p className="mt-10 rounded-2xl border border-dashed border-gray-300 p-10 text-center font-semibold dark:border-gray-700">
        {t('posts.noneFound')}
      </p>
    );
  }
  return (
    <>
      <ul className="mt-8 divide-y divide-gray-200 dark:divide-gray-800">
        {list.posts.map((post) => (
          <li key={post.slug} className="py-6">
            <article>
              <p className="text-sm text-gray-500 dark:text-gray-400">
                <time dateTime={post.publishedAt}>{formatDate(post.publishedAt, tag)}</time>
              </p>
              <h2 className="mt-1 text-xl font-bold tracking-tight">
                <Link to={`/blog/${post.slug}`} className="hover:text-primary-700 dark:hover:text-primary-400">
                  {post.title}
                </Link>
              </h2>
              {post.description && <p className="mt-2 leading-7 text-gray-600 dark:text-gray-400">{post.description}</p>}
              {post.tags.length > 0 && (
                <p className="mt-3 flex flex-wrap gap-2">
                  {post.tags.map((tag) => (
                    <TagLink key={tag} tag={tag} />
                  ))}
                </p>
              )}
            </article>
          </li>
        ))}
      </ul>
      <PageLinks page={list.page} pageCount={list.pageCount} hrefFor={hrefFor} className="mt-6" />
    </>
  );
}
