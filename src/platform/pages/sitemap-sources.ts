import { Injectable } from '@nestjs/common';

/** A video on the page (Google's video sitemap extension). */
export interface SitemapVideo {
  /** Path of its thumbnail on this site ('/og/levels/27.png'). */
  thumbnailPath: string;
  title: string;
  description: string;
  playerUrl: string;
  durationSeconds: number;
}

/** One `<url>` of the sitemap. */
export interface SitemapUrl {
  /** The page's path, as it goes in a URL ('/category/site-news'); the sitemap escapes it for XML. */
  path: string;
  /** ISO date or date-time of its last change. */
  lastmod?: string;
  video?: SitemapVideo;
}

/** What a module lists in sitemap.xml: its pages built from its data (posts, guides). */
export interface SitemapSource {
  /** Sources are listed in the order of their names, whatever order the modules start in. */
  name: string;
  urls?(): Promise<SitemapUrl[]>;
  /** Paths other sources list that this one keeps out for now (billing: the refund policy while payments are off). */
  withheld?(): readonly string[];
}

/**
 * The sitemap's entries from the modules: each adds its source from onModuleInit, and the sitemap
 * lists the route table's pages, then every source's URLs. Their documents are cached like pages
 * (until content is imported), so a source may read the database.
 */
@Injectable()
export class SitemapSources {
  private readonly sources = new Map<string, SitemapSource>();

  add(source: SitemapSource): void {
    if (this.sources.has(source.name)) throw new Error(`A sitemap source ${source.name} is already added`);
    this.sources.set(source.name, source);
  }

  /** `first` (the route table's pages), then each source's URLs by name, less every withheld path. */
  async urls(first: readonly SitemapUrl[] = []): Promise<SitemapUrl[]> {
    const sources = [...this.sources.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    const lists = await Promise.all(sources.map((source) => source.urls?.() ?? []));
    const withheld = new Set(sources.flatMap((source) => source.withheld?.() ?? []));
    return [...first, ...lists.flat()].filter((url) => !withheld.has(url.path));
  }
}
