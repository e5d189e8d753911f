import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { NotFoundError } from 'src/platform/errors/app-error';
import { ContentDocuments } from 'src/platform/content/content-documents';
import { SitemapSources } from 'src/platform/pages/sitemap-sources';
import { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';
import { SITEMAP_LIMITS, sitemapEntry, sitemapIndex, splitSitemap, urlset } from './sitemap';
import { webManifest } from './web-manifest';

/**
 * The site's own files, served as files rather than pages: robots.txt, the sitemap (the route
 * table's pages, then what each module adds to SitemapSources) and the web app manifest (the site's
 * settings and the build's icons: no module's data). The feeds are their modules' (levels, content).
 */
@ApiExcludeController()
@Controller()
export class SiteFilesController {
  constructor(
    private readonly config: AppConfig,
    private readonly sources: SitemapSources,
    private readonly documents: ContentDocuments,
    private readonly pages: ServerEntrySource,
    private readonly site: SitePageData,
  ) {}

  /** The web app manifest (src/ssr/web-manifest.ts): the site's settings, so made by the server rather than the build. */
  @Get('manifest.webmanifest')
  @Header('content-type', 'application/manifest+json; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  manifest(): string {
    return JSON.stringify(webManifest(this.config));
  }

  @Get('robots.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  robots(): string {
    return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${this.config.http.publicUrl}/sitemap.xml\n`;
  }

  /**
   * Every page a visitor can reach without an account: one `<urlset>`, or past SITEMAP_MAX_URLS
   * URLs (or 50 MB) a sitemap index of the parts /sitemap-1.xml, /sitemap-2.xml, ... robots.txt
   * names this address either way.
   */
  @Get('sitemap.xml')
  @Header('content-type', 'application/xml; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  async sitemap(): Promise<string> {
    const parts = await this.parts();
    if (parts.length === 1) return urlset(parts[0]!);
    const base = this.config.http.publicUrl;
    return sitemapIndex(parts.map((_, i) => `${base}/sitemap-${i + 1}.xml`));
  }

  /**
   * One part of a sitemap split into an index; none while the sitemap is one file. Its headers are
   * set once the part exists: a 404 is the JSON error like any other.
   */
  @Get('sitemap-:part.xml')
  async sitemapPart(@Param('part') part: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const index = /^[1-9]\d{0,5}$/.test(part) ? Number(part) - 1 : -1;
    const parts = index >= 0 ? await this.parts() : [];
    if (parts.length < 2 || !parts[index]) throw new NotFoundError('No such sitemap part');
    void reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return urlset(parts[index]);
  }

  /**
   * The sitemap's `<url>` entries cut into files within the limits (one file while they fit), kept
   * until content is imported: the route table's pages marked `sitemap` (web/route-table.ts, those
   * 'with-payments' while payments are on), then the modules' (categories and months, posts,
   * content pages; every level with a guide, with its video when real).
   */
  private parts(): Promise<string[][]> {
    return this.documents.get('sitemap', async () => {
      const base = this.config.http.publicUrl;
      const routes = (await this.pages.entry()).sitemapPaths(this.site.data).map((path) => ({ path }));
      const entries = (await this.sources.urls(routes)).map((url) => sitemapEntry(base, url));
      return splitSitemap(entries, { urls: this.config.sitemapMaxUrls, bytes: SITEMAP_LIMITS.bytes });
    });
  }
}
