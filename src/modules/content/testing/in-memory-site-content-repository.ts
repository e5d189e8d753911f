import type { ExploreData, MediaEntry, PostListQuery, PostSummary } from 'src/contracts/content';
import { MARK_END, MARK_START, type RankedHits, type SearchTerms } from 'src/contracts/search';
import { BlogPost, ContentPage, type PageFile, type PostFile } from '../domain/content';
import { SiteContentRepository, type SiteImportSummary } from '../domain/site-content-repository.port';

/** A published post for specs. */
export function aPost(slug: string, overrides: Partial<BlogPost> = {}): BlogPost {
  return Object.assign(new BlogPost(), {
    slug,
    title: `Post ${slug}`,
    description: `About ${slug}`,
    html: `<p>About ${slug}.</p>`,
    publishedAt: new Date('2026-03-01T00:00:00Z'),
    tags: ['news'],
    searchText: `post ${slug} about ${slug}`,
    sourceHash: `hash-${slug}`,
    published: true,
    updatedAt: new Date('2026-03-01T00:00:00Z'),
    ...overrides,
  });
}

/** A published content page for specs. */
export function aPage(slug: string, overrides: Partial<ContentPage> = {}): ContentPage {
  return Object.assign(new ContentPage(), {
    slug,
    title: `Page ${slug}`,
    description: `About ${slug}`,
    html: `<p>About ${slug}.</p>`,
    updatedOn: '2026-03-01',
    searchText: `page ${slug} about ${slug}`,
    sourceHash: `hash-${slug}`,
    published: true,
    updatedAt: new Date('2026-03-01T00:00:00Z'),
    ...overrides,
  });
}

const month = (post: BlogPost) => post.publishedAt.toISOString().slice(0, 7);
const toSummary = (post: BlogPost): PostSummary => ({ slug: post.slug, title: post.title, description: post.description, publishedAt: post.publishedAt.toISOString(), tags: post.tags });

/**
 * The blog and the content pages in memory, for specs: published ones only, newest posts first,
 * filters and counts as the SQL answers them, a plain word search, the import's diff by hash.
 * test/content.int-spec.ts proves the SQL.
 */
export class InMemorySiteContentRepository extends SiteContentRepository {
  readonly pages = new Map<string, ContentPage>();
  readonly postRows = new Map<string, BlogPost>();
  mediaEntries: MediaEntry[] = [];

  constructor(content: { pages?: ContentPage[]; posts?: BlogPost[] } = {}) {
    super();
    for (const page of content.pages ?? []) this.pages.set(page.slug, page);
    for (const post of content.posts ?? []) this.postRows.set(post.slug, post);
  }

  private published(): BlogPost[] {
    return [...this.postRows.values()].filter((p) => p.published).sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || a.slug.localeCompare(b.slug));
  }

  async page(slug: string) {
    const page = this.pages.get(slug);
    return page?.published ? { ...page } : null;
  }

  async post(slug: string) {
    const post = this.postRows.get(slug);
    return post?.published ? { ...post } : null;
  }

  async posts(query: PostListQuery, pageSize: number) {
    const words = query.query?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
    const found = this.published().filter(
      (p) => (!query.tag || p.tags.includes(query.tag)) && (!query.month || month(p) === query.month) && words.every((w) => p.searchText.toLowerCase().includes(w)),
    );
    return { posts: found.slice((query.page - 1) * pageSize, query.page * pageSize).map(toSummary), total: found.length };
  }

  private hits<T extends { title: string; searchText: string }>(items: T[], terms: SearchTerms, limit: number) {
    const mark = (text: string) => terms.words.reduce((out, w) => out.replace(new RegExp(`\\b(${w})`, 'gi'), `${MARK_START}$1${MARK_END}`), text);
    const found = items
      .map((item) => ({ item, has: terms.words.filter((w) => `${item.title} ${item.searchText}`.toLowerCase().includes(w)) }))
      .filter(({ has }) => terms.words.length > 0 && (terms.match === 'all' ? has.length === terms.words.length : has.length > 0))
      .map(({ item, has }) => ({ item, tier: terms.words.every((w) => item.title.toLowerCase().includes(w)) ? 2 : 0, rank: has.length / terms.words.length, title: mark(item.title), snippet: mark(item.searchText.slice(0, 160)) }))
      .sort((a, b) => b.tier - a.tier || b.rank - a.rank);
    return { total: found.length, found: found.slice(0, limit) };
  }

  async searchPosts(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string; publishedAt: string }>> {
    const { total, found } = this.hits(this.published(), terms, limit);
    return { total, hits: found.map(({ item, ...hit }) => ({ ...hit, slug: item.slug, publishedAt: item.publishedAt.toISOString() })) };
  }

  async searchPages(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string }>> {
    const { total, found } = this.hits([...this.pages.values()].filter((p) => p.published), terms, limit);
    return { total, hits: found.map(({ item, ...hit }) => ({ ...hit, slug: item.slug })) };
  }

  async latestPosts(limit: number) {
    return this.published().slice(0, limit);
  }

  async postSitemapEntries() {
    return this.published().map((p) => ({ slug: p.slug, publishedAt: p.publishedAt }));
  }

  async publishedPages() {
    return [...this.pages.values()].filter((p) => p.published).map((p) => ({ slug: p.slug, updatedOn: p.updatedOn }));
  }

  async media() {
    return this.mediaEntries;
  }

  async explore(limits?: { tags: number; months: number }): Promise<Omit<ExploreData, 'olderPostsPage'>> {
    const count = (keys: string[]) => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())];
    const tags = count(this.published().flatMap((p) => p.tags))
      .map(([tag, posts]) => ({ tag, posts }))
      .sort((a, b) => b.posts - a.posts || a.tag.localeCompare(b.tag));
    const months = count(this.published().map(month))
      .map(([m, posts]) => ({ month: m, posts }))
      .sort((a, b) => b.month.localeCompare(a.month));
    return { tags: limits ? tags.slice(0, limits.tags) : tags, months: limits ? months.slice(0, limits.months) : months, tagCount: tags.length, monthCount: months.length };
  }

  async replaceAll(pages: PageFile[], posts: PostFile[], media: MediaEntry[], _contentHash: string, now: Date): Promise<SiteImportSummary> {
    this.mediaEntries = media;
    const sync = <F extends { slug: string; sourceHash: string }, R extends F & { published: boolean; updatedAt: Date }>(rows: Map<string, R>, files: F[], make: (file: F) => R) => {
      const summary = { created: 0, updated: 0, unchanged: 0, unpublished: 0 };
      for (const file of files) {
        const row = rows.get(file.slug);
        if (row && row.published && row.sourceHash === file.sourceHash) summary.unchanged++;
        else {
          summary[row ? 'updated' : 'created']++;
          rows.set(file.slug, make(file));
        }
      }
      const slugs = new Set(files.map((f) => f.slug));
      for (const row of rows.values()) {
        if (row.published && !slugs.has(row.slug)) {
          row.published = false;
          summary.unpublished++;
        }
      }
      return summary;
    };
    return {
      pages: sync(this.pages, pages, (file) => Object.assign(new ContentPage(), file, { published: true, updatedAt: now })),
      posts: sync(this.postRows, posts, (file) => Object.assign(new BlogPost(), file, { published: true, updatedAt: now })),
    };
  }
}
