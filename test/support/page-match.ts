import type { Readable } from 'node:stream';
import type { PageData } from 'src/contracts/page-data';
import type { PageFound } from 'src/contracts/ssr';
import { serverEntry } from 'web/entry-server';

/** The server entry's match of a path that names a page (not a redirect), as the bridge hands it to render. */
export function pageMatch(pathAndQuery: string, data: PageData): PageFound {
  const match = serverEntry.match(pathAndQuery, data);
  if (match.kind !== 'page') throw new Error(`${pathAndQuery} redirects to ${match.location}`);
  return match;
}

/** A page rendered whole by the server entry, as a crawler gets it, on `data`: the HTML of its <main>. */
export async function renderMain(pathAndQuery: string, data: PageData): Promise<string> {
  const output = await serverEntry.render({
    url: `http://localhost:3000${pathAndQuery}`,
    match: pageMatch(pathAndQuery, data),
    headers: {},
    waitForAll: true,
    data,
    assets: { scripts: ['/assets/entry-client.js'], styles: [], preloads: [] },
    buildId: 'test',
    signal: new AbortController().signal,
  });
  if (output.kind !== 'html') throw new Error(`${pathAndQuery} did not render as HTML`);
  let html = '';
  for await (const chunk of output.stream as Readable) html += chunk.toString();
  return html.slice(html.indexOf('<main'), html.indexOf('</main>'));
}
