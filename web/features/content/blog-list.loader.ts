import type { PostListData } from 'src/contracts/content';
import { isMonth, isTag } from 'src/contracts/content';
import { searchText } from 'src/contracts/search-text';
import { invalidPage } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';
import { pageNumber } from 'web/lib/router/query';

/** /blog, /category/{tag} and /month/{YYYY-MM}: one list page, told apart by the route's parameter. */
export default async function blogListLoader({ params, url, data }: LoaderArgs): Promise<{
  list: PostListData;
  /** What the list is: all posts, one tag, or one month. */
  scope: { kind: 'all' } | { kind: 'tag'; tag: string } | { kind: 'month'; month: string };
}> {
  if (params.tag !== undefined) {
    const tag = params.tag;
    if (!isTag(tag)) return invalidPage(url.pathname + url.search);
    const list = await data.content.posts({ tag, page: pageNumber(url) });
    // A tag no post carries is not a category: the spec's 404 for a page that fails validation.
    if (list.total === 0) return invalidPage(url.pathname + url.search);
    return { list, scope: { kind: 'tag', tag } };
  }
  if (params.month !== undefined) {
    const month = params.month;
    if (!isMonth(month)) return invalidPage(url.pathname + url.search);
    return { list: await data.content.posts({ month, page: pageNumber(url) }), scope: { kind: 'month', month } };
  }
  const query = searchText(url.searchParams.get('query')?.trim().slice(0, 100));
  return { list: await data.content.posts({ query, page: pageNumber(url) }), scope: { kind: 'all' } };
}
