import { LEVELS_PAGE_SIZE, type LevelSummary } from 'src/contracts/levels';
import type { LoaderArgs } from 'web/lib/router/page';

/** The list API's page limit (levelListQuerySchema): past it there is nothing to read. */
const MAX_PAGES = 1000;

/**
 * /levels/hardest: the hard guides, longest reference time first (the first page's worth). The
 * list is read a page at a time, as the levels list reads it; the page is cached until the next
 * content import.
 */
export default async function hardestLoader({ data }: LoaderArgs): Promise<{ levels: LevelSummary[]; total: number }> {
  const hard: LevelSummary[] = [];
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await data.levels.list({ difficulty: 'hard', query: undefined, page });
    hard.push(...list.levels);
    total = list.total;
    if (page >= list.pageCount) break;
  }
  hard.sort((a, b) => b.referenceSeconds - a.referenceSeconds || a.number - b.number);
  return { levels: hard.slice(0, LEVELS_PAGE_SIZE), total };
}
