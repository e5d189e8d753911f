import { resolve } from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyStatic from '@fastify/static';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { AppConfig } from 'src/config/app-config';
import { ContentImporter } from 'src/platform/content/content-importer';
import { ContentImportModule } from 'src/platform/content/content-import.module';
import { MetricsModule } from 'src/platform/metrics/metrics.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { trimSubresourceHeaders } from './asset-headers';
import { CacheResponder } from './cache-responder';
import { PageCache, sitePageCache } from './page-cache';
import { PageMatcher } from './page-matcher';
import { PageRenderer } from './page-renderer';
import { PageController } from './page.controller';
import { PageService } from './page.service';
import { BuiltServerEntrySource } from './built-server-entry-source.adapter';
import { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';
import { SiteFilesController } from './site-files.controller';
import { SsrHttpHooks } from './ssr-http-hooks';
import { ViteServerEntrySource } from './vite-server-entry-source.adapter';

const ONE_YEAR = 31_536_000;

/** The in-memory page cache, emptied whenever level guides or site content are imported. */
function pageCache(config: AppConfig, content: ContentImporter): PageCache {
  const cache = sitePageCache(config.pageCacheTtlMs);
  content.onImported(() => cache.clear());
  return cache;
}

/**
 * Server-side rendering of the React pages in web/. Import it last: its route catches every path.
 * It knows no feature module: the page data, the sitemap's entries and the page views come from
 * what the loaded modules added to the PagesModule registries (auth's AdminAccess aside, for admin pages).
 */
@Module({})
export class SsrModule {
  static forRoot(source: ServerEntrySource): DynamicModule {
    return {
      module: SsrModule,
      imports: [ContentImportModule, MetricsModule, AuthGuardsModule, PagesModule],
      controllers: [SiteFilesController, PageController],
      providers: [
        SitePageData,
        { provide: ServerEntrySource, useValue: source },
        { provide: PageCache, useFactory: pageCache, inject: [AppConfig, ContentImporter] },
        PageMatcher,
        CacheResponder,
        PageRenderer,
        PageService,
        SsrHttpHooks,
      ],
    };
  }

  /** The production build, or Vite in development. */
  static async createSource(mode: 'built' | 'vite', rootDir = process.cwd()): Promise<ServerEntrySource> {
    return mode === 'vite'
      ? ViteServerEntrySource.create(rootDir)
      : new BuiltServerEntrySource(resolve(rootDir, 'dist'));
  }

  /**
   * Client files: hashed assets cached for a year (`immutable`), the build id and the service worker
   * (`/sw.js`: the browser checks it for a new build, web/pwa/sw.ts) revalidated every time, the rest
   * for an hour. Sent as the build compressed them (scripts/precompress.mjs wrote `.br` and `.gz`
   * beside each: `path` is then the compressed file's), so no asset is compressed per request. In
   * development Vite serves them instead.
   */
  static async registerAssets(app: NestFastifyApplication, source: ServerEntrySource, rootDir = process.cwd()): Promise<void> {
    if (source instanceof ViteServerEntrySource) {
      app.use(source.vite.middlewares);
      return;
    }
    await app.register(fastifyStatic, {
      root: resolve(rootDir, 'dist/client'),
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders(res, path) {
        const cache = path.includes('/assets/')
          ? `public, max-age=${ONE_YEAR}, immutable`
          : path.includes('/builds/') || /\/sw\.js(\.br|\.gz)?$/.test(path)
            ? 'no-cache'
            : 'public, max-age=3600';
        void res.header("cache-control", cache);
        trimSubresourceHeaders(res, path);
      },
    });
  }
}
