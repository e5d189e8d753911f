import type { PageAssets } from 'src/contracts/page-data';
import type { ServerEntry } from 'src/contracts/ssr';

/**
 * Where the React server entry and the client's asset URLs come from: the production build in
 * dist/, or Vite's dev server with hot reload.
 */
export abstract class ServerEntrySource {
  abstract entry(): Promise<ServerEntry>;
  abstract assets(): PageAssets;
  abstract readonly buildId: string;
}
