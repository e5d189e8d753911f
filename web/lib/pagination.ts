/**
 * The page links a long list shows: the first and last pages, and a window of `radius` pages either
 * side of the current one, with a gap ('…') where pages are left out. 208 pages of guides become
 * about nine links instead of 208.
 */
export type PageLink = number | 'gap';

export function pageWindow(current: number, count: number, radius = 2): PageLink[] {
  if (count <= 1) return [];
  const page = Math.min(Math.max(1, current), count);
  const from = Math.max(1, page - radius);
  const to = Math.min(count, page + radius);
  const links: PageLink[] = [];
  if (from > 1) links.push(1);
  // A gap of one page is shown as that page: "1 2 3" reads better than "1 … 3".
  if (from > 3) links.push('gap');
  else if (from === 3) links.push(2);
  for (let n = from; n <= to; n++) links.push(n);
  if (to < count - 2) links.push('gap');
  else if (to === count - 2) links.push(count - 1);
  if (to < count) links.push(count);
  return links;
}
