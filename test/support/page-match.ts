import type { PageData } from 'src/contracts/page-data';
import type { PageFound } from 'src/contracts/ssr';
import { serverEntry } from 'web/entry-server';

/** The server entry's match of a path that names a page (not a redirect), as the bridge hands it to render. */
export function pageMatch(pathAndQuery: string, data: PageData): PageFound {
  const match = serverEntry.match(pathAndQuery, data);
  if (match.kind !== 'page') throw new Error(`${pathAndQuery} redirects to ${match.location}`);
  return match;
}
