import { LEVEL_SEARCH_MESSAGES, parseLevelSearch } from 'src/contracts/level-number';
import { SEARCH_QUERY_MAX, type SearchResults } from 'src/contracts/search';
import { filterText } from 'src/contracts/search-text';
import { PageRedirect, type LoaderArgs } from 'web/lib/router/page';

/**
 * /search?q=: the header box's search without JavaScript, and the results page. A number goes
 * straight to its guide with the level search's messages (the header's rule, server side).
 */
export default async function searchLoader({ url, data }: LoaderArgs): Promise<{
  query: string;
  results?: SearchResults;
  /** The level-search message when the query was blank or a number out of range. */
  message?: string;
}> {
  const raw = url.searchParams.get('q');
  if (raw === null) return { query: '' };
  const query = filterText(raw, SEARCH_QUERY_MAX)?.replace(/\s+/g, ' ') ?? '';
  if (!query) return { query, message: LEVEL_SEARCH_MESSAGES.empty };
  if (/^\d+$/.test(query)) {
    const result = parseLevelSearch(query, data.config.levels.searchMax);
    if (result.ok) throw new PageRedirect(`/levels/${result.level}`);
    return { query, message: result.message };
  }
  return { query, results: await data.search.results(query) };
}
