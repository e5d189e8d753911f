import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PAGE_CHUNKS_ASSET, type PageAssets, type PageChunks } from 'src/contracts/page-data';
import type { ServerEntry } from 'src/contracts/ssr';
import { ServerEntrySource } from './server-entry-source.port';

const CLIENT_ENTRY = 'web/entry-client.tsx';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** Serves pages from `npm run build`'s output: dist/ssr/entry-server.mjs and dist/client. */
export class BuiltServerEntrySource extends ServerEntrySource {
  readonly buildId: string;
  private readonly pageAssets: PageAssets;
  private loaded?: Promise<ServerEntry>;

  constructor(private readonly distDir: string) {
    super();
    const manifestPath = join(distDir, 'client/.vite/manifest.json');
    if (!existsSync(manifestPath)) {
      throw new Error(`No client build at ${manifestPath}: run "npm run build" first`);
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const entry = manifest[CLIENT_ENTRY];
    if (!entry) throw new Error(`The client manifest has no entry for ${CLIENT_ENTRY}`);
    const chunkMap = manifest[PAGE_CHUNKS_ASSET];
    if (!chunkMap) throw new Error(`The client build has no ${PAGE_CHUNKS_ASSET}: run "npm run build" again`);
    this.pageAssets = {
      scripts: [`/${entry.file}`],
      styles: (entry.css ?? []).map((file) => `/${file}`),
      preloads: (entry.imports ?? []).map((key) => `/${manifest[key]!.file}`),
      pageChunks: { url: `/${chunkMap.file}`, map: JSON.parse(readFileSync(join(distDir, 'client', chunkMap.file), 'utf8')) as PageChunks },
    };
    this.buildId = (JSON.parse(readFileSync(join(distDir, 'client/builds/latest.json'), 'utf8')) as { id: string }).id;
  }

  entry(): Promise<ServerEntry> {
    // A real ESM import (SWC leaves dynamic import() alone): the SSR bundle is an .mjs module.
    this.loaded ??= import(pathToFileURL(join(this.distDir, 'ssr/entry-server.mjs')).href).then(
      (module: { serverEntry: ServerEntry }) => module.serverEntry,
    );
    return this.loaded;
  }

  assets(): PageAssets {
    return this.pageAssets;
  }
}
