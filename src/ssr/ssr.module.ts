import { resolve } from 'node:path';
import { type DynamicModule, Module } from '@nestjs/common';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyStatic from '@fastify/static';
import { BillingModule } from 'src/modules/billing/billing.module';
import { ContentModule } from 'src/modules/content/content.module';
import { GuideReportsModule } from 'src/modules/guide-reports/guide-reports.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { OpsModule } from 'src/modules/ops/ops.module';
import type { ServerEntry } from 'src/contracts/ssr';
import { ContentImportModule } from 'src/platform/content/content-import.module';
import { MetricsModule } from 'src/platform/metrics/metrics.module';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { PageController, PAYLOAD_SUFFIX } from './page.controller';
import { SeoController } from './seo.controller';
import { BuiltServerEntrySource } from './built-server-entry-source.adapter';
import { ServerEntrySource } from './server-entry-source.port';
import { ServerPageData } from './server-page-data';
import { ViteServerEntrySource } from './vite-server-entry-source.adapter';

const ONE_YEAR = 31_536_000;

/** Server-side rendering of the React pages in web/. Import it last: its route catches every path. */
@Module({})
export class SsrModule {
  static forRoot(source: ServerEntrySource): DynamicModule {
    return {
      module: SsrModule,
      imports: [LevelsModule, ContentModule, ContentImportModule, BillingModule, GuideReportsModule, MetricsModule, AuthGuardsModule, OpsModule],
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
   * for an hour. Sent as the build compressed them (scripts/precompress.mjs wrote `.br` and `.gz`
   * beside each), so no asset is compressed per request. In development Vite serves them instead.
   */
  static async registerAssets(app: NestFastifyApplication, source: ServerEntrySource, rootDir = process.cwd()): Promise<void> {
    // Cached pages are answered before Nest's middleware and routing (see PageController.serveFromCache).
    const pages = app.get(PageController);
    (app.getHttpAdapter() as FastifyAdapter).setOnRequestHook((request, reply, done) => {
      if (!pages.serveFromCache(request, reply)) done();
    });
    app.get(MetricsService).labelPages(pageRouteLabels(source));
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
          : path.includes('/builds/')
            ? 'no-cache'
            : 'public, max-age=3600';
        void res.header("cache-control", cache);
      },
    });
  }
}

const ROUTE_LABELS_REMEMBERED = 2000;

/**
 * Metrics label a page request by its route's pattern ('/levels/:id', a payload's with
 * '/_payload.json' added), never by its path; 'page' until the server entry has loaded.
 */
function pageRouteLabels(source: ServerEntrySource): (url: string) => string {
  let entry: ServerEntry | undefined;
  void source.entry().then(
    (loaded) => (entry = loaded),
    () => undefined, // the first page request reports it
  );
  // Matching a path against every route runs once per response: remembered per path (a bounded
  // number of them; any path may arrive, so the memory starts over when full).
  const known = new Map<string, string>();
  return (url) => {
    if (!entry) return 'page';
    const path = url.split('?', 1)[0]!;
    let label = known.get(path);
    if (label === undefined) {
      label = path.endsWith(PAYLOAD_SUFFIX) ? `${entry.routePattern(path.slice(0, -PAYLOAD_SUFFIX.length) || '/')}${PAYLOAD_SUFFIX}` : entry.routePattern(path);
      if (known.size >= ROUTE_LABELS_REMEMBERED) known.clear();
      known.set(path, label);
    }
    return label;
  };
}
