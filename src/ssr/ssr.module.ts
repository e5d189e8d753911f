import { resolve } from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyStatic from '@fastify/static';
import { BillingModule } from 'src/modules/billing/billing.module';
import { ContentModule } from 'src/modules/content/content.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { PageController } from './page.controller';
import { SeoController } from './seo.controller';
import { BuiltServerEntrySource } from './built-server-entry.source';
import { ServerEntrySource } from './server-entry.source';
import { ServerPageData } from './server-page-data';
import { ViteServerEntrySource } from './vite-server-entry.source';

const ONE_YEAR = 31_536_000;

/** Server-side rendering of the React pages in web/. Import it last: its route catches every path. */
@Module({})
export class SsrModule {
  static forRoot(source: ServerEntrySource): DynamicModule {
    return {
      module: SsrModule,
      imports: [LevelsModule, ContentModule, BillingModule],
      controllers: [SeoController, PageController],
      providers: [ServerPageData, { provide: ServerEntrySource, useValue: source }],
    };
  }

  /** The production build, or Vite in development. */
  static async createSource(mode: 'built' | 'vite', rootDir = process.cwd()): Promise<ServerEntrySource> {
    return mode === 'vite'
      ? ViteServerEntrySource.create(rootDir)
      : new BuiltServerEntrySource(resolve(rootDir, 'dist'));
  }

  /**
   * Client files: hashed assets cached for a year (`immutable`), the build id never cached, the rest
   * for an hour. In development Vite serves them instead.
   */
  static async registerAssets(app: NestFastifyApplication, source: ServerEntrySource, rootDir = process.cwd()): Promise<void> {
    // Cached pages are answered before Nest's middleware and routing (see PageController.serveFromCache).
    const pages = app.get(PageController);
    (app.getHttpAdapter() as FastifyAdapter).setOnRequestHook((request, reply, done) => {
      if (!pages.serveFromCache(request, reply)) done();
    });
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
      setHeaders(res, path) {
        const cache = path.includes('/assets/')
          ? `public, max-age=${ONE_YEAR}, immutable`
          : path.includes('/builds/')
            ? 'no-cache'
            : 'public, max-age=3600';
        void res.header("cache-control", cache);
      },
    });
  }
}
