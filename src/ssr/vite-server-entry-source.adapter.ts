import type { ViteDevServer } from 'vite';
import type { PageAssets } from 'src/contracts/page-data';
import type { ServerEntry } from 'src/contracts/ssr';
import { ServerEntrySource } from './server-entry-source.port';

/** Development: Vite compiles web/ on request, so page changes show without a restart. */
export class ViteServerEntrySource extends ServerEntrySource {
  readonly buildId = 'development';

  constructor(readonly vite: ViteDevServer) {
    super();
  }

  static async create(root: string): Promise<ViteServerEntrySource> {
    const { createServer } = await import('vite');
    const vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' });
    return new ViteServerEntrySource(vite);
  }

  async entry(): Promise<ServerEntry> {
    const module = await this.vite.ssrLoadModule('/web/entry-server.tsx');
    return module.serverEntry as ServerEntry;
  }

  assets(): PageAssets {
    return {
      scripts: ['/@vite/client', '/web/dev-preamble.ts', '/web/entry-client.tsx'],
      styles: ['/web/styles/app.css'],
      preloads: [],
    };
  }
}
