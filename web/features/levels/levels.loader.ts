import { parseLevelSearch } from 'src/contracts/level-number';
import type { LevelListData } from 'src/contracts/levels';
import { levelListQuerySchema } from 'src/contracts/levels.schema';
import { invalidPage } from 'web/lib/not-found';
import { PageRedirect, type LoaderArgs } from 'web/lib/router/page';

export default async function levelsLoader({ url, data }: LoaderArgs): Promise<{
  list: LevelListData;
  /** The level-search message when a plain (no-JavaScript) search was not a valid number. */
  message?: string;
}> {
  const search = url.searchParams;
  const max = data.config.levels.searchMax;
  // The header search's old address without JavaScript (GET /levels?level=27), kept for links to it.
  const level = search.get('level');
  if (level !== null) {
    const result = parseLevelSearch(level, max);
    if (result.ok) throw new PageRedirect(`/levels/${result.level}`);
    return { list: await data.levels.list({ page: 1, query: undefined }), message: result.message };
  }
  const parsed = levelListQuerySchema.safeParse({
    difficulty: search.get('difficulty') || undefined,
    query: search.get('query') ?? undefined,
    page: search.get('page') ?? undefined,
  });
  if (!parsed.success) return invalidPage(url.pathname + url.search);
  // A number in the list's search box jumps straight to that level.
  if (parsed.data.query && /^\d+$/.test(parsed.data.query)) {
    const result = parseLevelSearch(parsed.data.query, max);
    if (result.ok) throw new PageRedirect(`/levels/${result.level}`);
    return { list: await data.levels.list({ ...parsed.data, query: undefined }), message: result.message };
  }
  return { list: await data.levels.list(parsed.data) };
}
