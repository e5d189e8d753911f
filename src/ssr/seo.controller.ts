import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { SiteContentService } from 'src/modules/content';
import { LevelsService } from 'src/modules/levels';
import { NotFoundError } from 'src/platform/errors/app-error';
import { ContentImporter } from 'src/platform/content/content-importer';
import { escapeMarkup } from 'src/platform/markup/escape-markup';
import { ServerEntrySource } from './server-entry-source.port';
import { SITEMAP_LIMITS, sitemapIndex, splitSitemap, urlset } from './sitemap';
import { webManifest } from './web-manifest';

/** The content page the footer links only while payments are on (spec). */
const REFUND_POLICY_SLUG = 'refund-policy';

/** robots.txt, the sitemap, the feeds and the web app manifest, served as files rather than pages. */
@ApiExcludeController()
@Controller()
export class SeoController {
  /**
   * The sitemap's parts and the feeds, built once and kept like cached pages: until content is
   * imported (the page cache's signal) or PAGE_CACHE_TTL_SECONDS pass. Built on every request, they
   * cost a few queries and a walk over every guide each time.
   */
  private readonly built = new Map<string, { storedAt: number; value: Promise<unknown> }>();

  constructor(
    private readonly config: AppConfig,
    private readonly levels: LevelsService,
    private readonly content: SiteContentService,
    private readonly pages: ServerEntrySource,
    importer: ContentImporter,
  ) {
    importer.onImported(() => this.built.clear());
  }

  private cached<T>(name: string, build: () => Promise<T>): Promise<T> {
    const hit = this.built.get(name);
    if (this.config.pageCache && hit && Date.now() - hit.storedAt < this.config.pageCacheTtlMs) return hit.value as Promise<T>;
    const value = build();
    this.built.set(name, { storedAt: Date.now(), value });
    // A failed build (the database away) is not kept.
    value.catch(() => {
      if (this.built.get(name)?.value === value) this.built.delete(name);
    });
    return value;
  }

  /** Atom feed of the blog, newest 30 posts. */
  @Get('blog/feed.xml')
  @Header('content-type', 'application/atom+xml; charset=utf-8')
  @Header('cache-control', 'public, max-age=600')
  blogFeed(): Promise<string> {
    return this.cached('blog-feed', () => this.buildBlogFeed());
  }

  private async buildBlogFeed(): Promise<string> {
    const base = this.config.http.publicUrl;
    const posts = await this.content.latestPosts(30);
    return atomFeed({
      id: `${base}/blog`,
      title: `${this.config.public.siteName} blog`,
      self: `${base}/blog/feed.xml`,
      alternate: `${base}/blog`,
      updated: posts[0]?.publishedAt ?? new Date(0).toISOString(),
      entries: posts.map((post) => ({
        id: `${base}/blog/${post.slug}`,
        title: post.title,
        link: `${base}/blog/${post.slug}`,
        updated: post.publishedAt,
        summary: post.description,
        html: post.html,
      })),
    });
  }

  /** Atom feed of new and updated level guides, most recent 50. */
  @Get('levels/feed.xml')
  @Header('content-type', 'application/atom+xml; charset=utf-8')
  @Header('cache-control', 'public, max-age=600')
  levelsFeed(): Promise<string> {
    return this.cached('levels-feed', () => this.buildLevelsFeed());
  }

  private async buildLevelsFeed(): Promise<string> {
    const base = this.config.http.publicUrl;
    const { gameName, siteName } = this.config.public;
    const guides = await this.levels.recentlyUpdated(50);
    return atomFeed({
      id: `${base}/levels`,
      title: `${siteName}: new and updated level guides`,
      self: `${base}/levels/feed.xml`,
      alternate: `${base}/levels`,
      updated: (guides[0]?.updatedAt ?? new Date(0)).toISOString(),
      entries: guides.map((level) => ({
        id: `${base}/levels/${level.number}`,
        title: `Level ${level.number}: ${level.title}`,
        link: `${base}/levels/${level.number}`,
        updated: level.updatedAt.toISOString(),
        summary: `${gameName} level ${level.number} walkthrough: hints, step-by-step solution and video.`,
      })),
    });
  }

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
   * Every page a visitor can reach without an account (see `entries`): one `<urlset>`, or past
   * SITEMAP_MAX_URLS URLs (or 50 MB) a sitemap index of the parts /sitemap-1.xml, /sitemap-2.xml, ...
   * robots.txt names this address either way.
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

  /** The sitemap's entries cut into files within the limits (one file while they fit). */
  private parts(): Promise<string[][]> {
    return this.cached('sitemap', async () => splitSitemap(await this.entries(), { urls: this.config.sitemapMaxUrls, bytes: SITEMAP_LIMITS.bytes }));
  }

  /**
   * The `<url>` entries: home, the lists and info pages, categories and months, every post, the
   * content pages (the refund policy only with payments on), pricing and the image tool with
   * payments on, and every level with a guide (with its video when real).
   */
  private async entries(): Promise<string[]> {
    const base = this.config.http.publicUrl;
    const { gameName } = this.config.public;
    const [guides, posts, allPages, archive] = await Promise.all([
      this.levels.sitemapEntries(),
      this.content.postSitemapEntries(),
      this.content.publishedPages(),
      this.content.archive(),
    ]);
    const payments = this.config.public.settings.has_payment;
    const pages = allPages.filter((page) => payments || page.slug !== REFUND_POLICY_SLUG);
    // The route table's pages marked `sitemap` (web/route-table.ts); the content pages follow.
    const lists = (await this.pages.entry()).sitemapPaths(payments);
    return [
      ...lists.map((path) => `<url><loc>${base}${path}</loc></url>`),
      ...archive.tags.map((entry) => `<url><loc>${base}/category/${encodeURIComponent(entry.tag)}</loc></url>`),
      ...archive.months.map((entry) => `<url><loc>${base}/month/${escapeMarkup(entry.month)}</loc></url>`),
      ...posts.map((post) => `<url><loc>${base}/blog/${escapeMarkup(post.slug)}</loc><lastmod>${post.publishedAt.toISOString()}</lastmod></url>`),
      ...pages.map((page) => `<url><loc>${base}/${escapeMarkup(page.slug)}</loc><lastmod>${page.updatedOn}</lastmod></url>`),
      ...guides.map((level) => {
        const video =
          level.video && !level.video.sample
            ? `<video:video><video:thumbnail_loc>${base}/og/levels/${level.number}.png</video:thumbnail_loc>` +
              `<video:title>${escapeMarkup(level.video.title)}</video:title>` +
              `<video:description>${escapeMarkup(`${gameName} level ${level.number} walkthrough: ${level.title}`)}</video:description>` +
              `<video:player_loc>https://www.youtube-nocookie.com/embed/${escapeMarkup(level.video.youtubeId)}</video:player_loc>` +
              `<video:duration>${level.video.durationSeconds}</video:duration></video:video>`
            : '';
        return `<url><loc>${base}/levels/${level.number}</loc><lastmod>${level.updatedAt.toISOString()}</lastmod>${video}</url>`;
      }),
    ];
  }
}

interface FeedEntry {
  id: string;
  title: string;
  link: string;
  updated: string;
  summary: string;
  html?: string;
}

/** An Atom 1.0 document; every text is escaped. */
function atomFeed(feed: { id: string; title: string; self: string; alternate: string; updated: string; entries: FeedEntry[] }): string {
  const entries = feed.entries.map(
    (e) =>
      `<entry><id>${escapeMarkup(e.id)}</id><title>${escapeMarkup(e.title)}</title><link href="${escapeMarkup(e.link)}"/><updated>${e.updated}</updated>` +
      `<summary>${escapeMarkup(e.summary)}</summary>${e.html ? `<content type="html">${escapeMarkup(e.html)}</content>` : ''}</entry>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${escapeMarkup(feed.id)}</id><title>${escapeMarkup(feed.title)}</title><updated>${feed.updated}</updated>` +
    `<link rel="self" href="${escapeMarkup(feed.self)}"/><link rel="alternate" href="${escapeMarkup(feed.alternate)}"/>` +
    entries.join('') +
    '</feed>\n'
  );
}
