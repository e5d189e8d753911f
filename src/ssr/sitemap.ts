/**
 * The sitemap's documents (sitemaps.org): one `<urlset>` while the site fits in one, else a
 * sitemap index of numbered parts. A file may list at most 50,000 URLs and be at most 50 MB
 * uncompressed; past either, the URLs are split in order into parts that each stay within both.
 */

import { escapeMarkup } from 'src/platform/markup/escape-markup';
import type { SitemapUrl } from 'src/platform/pages/sitemap-sources';

/** The protocol's limits for one file. */
export const SITEMAP_LIMITS = { urls: 50_000, bytes: 50 * 1024 * 1024 } as const;

const URLSET_START =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n';
const URLSET_END = '\n</urlset>\n';

/** One `<url>` entry: the page at `base` + its path, its last change, its video (Google's extension). */
export function sitemapEntry(base: string, url: SitemapUrl): string {
  const { video } = url;
  const lastmod = url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : '';
  const videoTag = video
    ? `<video:video><video:thumbnail_loc>${base}${escapeMarkup(video.thumbnailPath)}</video:thumbnail_loc>` +
      `<video:title>${escapeMarkup(video.title)}</video:title>` +
      `<video:description>${escapeMarkup(video.description)}</video:description>` +
      `<video:player_loc>${escapeMarkup(video.playerUrl)}</video:player_loc>` +
      `<video:duration>${video.durationSeconds}</video:duration></video:video>`
    : '';
  return `<url><loc>${base}${escapeMarkup(url.path)}</loc>${lastmod}${videoTag}</url>`;
}

/** A `<urlset>` of `<url>` entries, one a line. */
export function urlset(entries: readonly string[]): string {
  return URLSET_START + entries.join('\n') + URLSET_END;
}

/** A sitemap index listing the parts at `locations` (absolute URLs). */
export function sitemapIndex(locations: readonly string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    locations.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('\n') +
    '\n</sitemapindex>\n'
  );
}

/**
 * The `<url>` entries in order, cut into the fewest runs whose `<urlset>` documents each hold at most
 * `limits.urls` entries and `limits.bytes` bytes. One run means no index is needed. An entry too large
 * for a file of its own still gets one (no sitemap entry comes near 50 MB).
 */
export function splitSitemap(entries: readonly string[], limits: { urls: number; bytes: number } = SITEMAP_LIMITS): string[][] {
  const fixed = Buffer.byteLength(URLSET_START) + Buffer.byteLength(URLSET_END);
  const parts: string[][] = [];
  let current: string[] = [];
  let bytes = fixed;
  for (const entry of entries) {
    // Each entry after the first adds its line break.
    const size = Buffer.byteLength(entry) + (current.length ? 1 : 0);
    if (current.length && (current.length >= limits.urls || bytes + size > limits.bytes)) {
      parts.push(current);
      current = [];
      bytes = fixed;
    }
    bytes += Buffer.byteLength(entry) + (current.length ? 1 : 0);
    current.push(entry);
  }
  if (current.length || !parts.length) parts.push(current);
  return parts;
}
