import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { ContentImporter } from './content-importer';

/**
 * Documents made from the published content (the sitemap, the blog and guide feeds), built once and
 * kept like cached pages: until content is imported (the page cache's signal) or
 * PAGE_CACHE_TTL_SECONDS pass. Built on every request, they cost a few queries and a walk over
 * every guide each time.
 */
@Injectable()
export class ContentDocuments {
  private readonly built = new Map<string, { storedAt: number; value: Promise<unknown> }>();

  constructor(
    private readonly config: AppConfig,
    importer: ContentImporter,
  ) {
    importer.onImported(() => this.built.clear());
  }

  /** The document named `name` ('blog-feed'), built by `build` when not kept. */
  get<T>(name: string, build: () => Promise<T>): Promise<T> {
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
}
