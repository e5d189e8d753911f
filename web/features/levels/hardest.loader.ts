import type { LevelSummary } from 'src/contracts/levels';
import type { LoaderArgs } from 'web/lib/router/page';

/**
 * /levels/hardest: the hard guides, longest reference time first (the first page's worth), read
 * in one query however many guides there are; the page is cached until the next content import.
 */
export default async function hardestLoader({ data }: LoaderArgs): Promise<{ levels: LevelSummary[]; total: number }> {
  return data.levels.hardest();
}
