import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ExploreData, MediaEntry, PostListQuery, PostSummary } from 'src/contracts/content';
import type { RankedHits, SearchTerms } from 'src/contracts/search';
import { ContentImportSchema } from 'src/platform/content/content-import.entity';
import { syncPublished } from 'src/platform/content/sync-published';
import { fullTextSql } from 'src/platform/search/full-text';
import { refreshSearchWords } from 'src/platform/search/search-words';
import type { BlogPost, ContentPage, PageFile, PostFile } from '../../domain/content';
import { SiteContentRepository, type SiteImportSummary } from '../../domain/site-content-repository.port';
import { BlogPostSchema, ContentPageSchema } from './content.entities';

interface HitRow {
  slug: string;
  published_at?: Date;
  tier: number;
  rank: number;
  total: string;
  marked_title: string;
  snippet: string;
}

/** Both tables' words, for the lexicon of spelling corrections. */
const SITE_WORDS = `select to_tsvector('simple', search_text) from blog_posts where published
  union all select to_tsvector('simple', search_text) from content_pages where published`;

interface PostRow {
  slug: string;
  title: string;
  description: string;
  published_at: Date;
  tags: string[];
  total?: string;
}

const hit = (r: HitRow) => ({ slug: r.slug, tier: r.tier, rank: r.rank, title: r.marked_title, snippet: r.snippet });

@Injectable()
export class MikroOrmSiteContentRepository extends SiteContentRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  page(slug: string): Promise<ContentPage | null> {
    return this.em.findOne(ContentPageSchema, { slug, published: true });
  }

  post(slug: string): Promise<BlogPost | null> {
    return this.em.findOne(BlogPostSchema, { slug, published: true });
  }

  async posts(query: PostListQuery, pageSize: number): Promise<{ posts: PostSummary[]; total: number }> {
    const where = ['published'];
    const params: unknown[] = [];
    if (query.query) {
      where.push(`search @@ websearch_to_tsquery('english', ?)`);
      params.push(query.query);
    }
    if (query.tag) {
      where.push('tags @> array[?]::text[]');
      params.push(query.tag);
    }
    if (query.month) {
      where.push(`to_char(published_at at time zone 'UTC', 'YYYY-MM') = ?`);
      params.push(query.month);
    }
    const rows = await this.em.execute<PostRow[]>(
      `select slug, title, description, published_at, tags, count(*) over () as total
       from blog_posts where ${where.join(' and ')} order by published_at desc, slug limit ? offset ?`,
      [...params, pageSize, (query.page - 1) * pageSize],
    );
    return {
      posts: rows.map((r) => ({
        slug: r.slug,
        title: r.title,
        description: r.description,
        publishedAt: new Date(r.published_at).toISOString(),
        tags: r.tags,
      })),
      total: rows[0] ? Number(rows[0].total) : 0,
    };
  }

  async searchPosts(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string; publishedAt: string }>> {
    const { total, rows } = await this.searchTable('blog_posts', ', published_at', terms, limit);
    return { total, hits: rows.map((r) => ({ ...hit(r), publishedAt: new Date(r.published_at!).toISOString() })) };
  }

  async searchPages(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string }>> {
    const { total, rows } = await this.searchTable('content_pages', '', terms, limit);
    return { total, hits: rows.map(hit) };
  }

  /** One table's matches, best first (ties: newest, then by slug), with the count of them all. */
  private async searchTable(table: 'blog_posts' | 'content_pages', extra: string, terms: SearchTerms, limit: number) {
    const ft = fullTextSql(terms);
    const newest = table === 'blog_posts' ? 'published_at desc, ' : '';
    const rows = await this.em.execute<HitRow[]>(
      `with ${ft.with},
       found as (
         select slug, title, search_text${extra}, ${ft.tier('title', 'search')} as tier, ${ft.rank('search')} as rank
         from ${table}, q where published and ${ft.matches('search')}
       ),
       best as (select *, count(*) over () as total from found order by tier desc, rank desc, ${newest}slug limit ?)
       select slug${extra}, tier, rank, total, ${ft.title('title')} as marked_title, ${ft.snippet('search_text')} as snippet
       from best, q order by tier desc, rank desc, ${newest}slug`,
      [...ft.params, limit],
    );
    return { total: rows[0] ? Number(rows[0].total) : 0, rows };
  }

  latestPosts(limit: number): Promise<BlogPost[]> {
    return this.em.find(BlogPostSchema, { published: true }, { orderBy: { publishedAt: 'desc' }, limit });
  }

  async postSitemapEntries() {
    const rows = await this.em.execute<{ slug: string; published_at: Date }[]>(
      'select slug, published_at from blog_posts where published order by published_at desc, slug',
    );
    return rows.map((r) => ({ slug: r.slug, publishedAt: new Date(r.published_at) }));
  }

  async publishedPages() {
    return this.em.execute<{ slug: string; updatedOn: string }[]>(
      `select slug, updated_on::text as "updatedOn" from content_pages where published order by slug`,
    );
  }

  async media(): Promise<MediaEntry[]> {
    const row = await this.em.findOne(ContentImportSchema, { kind: 'site' });
    return (row?.data as MediaEntry[] | undefined) ?? [];
  }

  async explore(limits?: { tags: number; months: number }): Promise<Omit<ExploreData, 'olderPostsPage'>> {
    // One round trip: both lists (LIMIT NULL is no limit) and how many there are before the limits.
    const [row] = await this.em.execute<{ tags: { tag: string; posts: number }[]; months: { month: string; posts: number }[]; tag_count: string; month_count: string }[]>(
      `with tags as (select tag, count(*) as posts from blog_posts, unnest(tags) as tag where published group by tag),
            months as (select to_char(published_at at time zone 'UTC', 'YYYY-MM') as month, count(*) as posts from blog_posts where published group by 1)
       select (select coalesce(json_agg(json_build_object('tag', tag, 'posts', posts) order by posts desc, tag), '[]')
                 from (select * from tags order by posts desc, tag limit ?) t) as tags,
              (select coalesce(json_agg(json_build_object('month', month, 'posts', posts) order by month desc), '[]')
                 from (select * from months order by month desc limit ?) m) as months,
              (select count(*) from tags) as tag_count,
              (select count(*) from months) as month_count`,
      [limits?.tags ?? null, limits?.months ?? null],
    );
    return {
      tags: (row?.tags ?? []).map((t) => ({ tag: t.tag, posts: Number(t.posts) })),
      months: (row?.months ?? []).map((m) => ({ month: m.month, posts: Number(m.posts) })),
      tagCount: Number(row?.tag_count ?? 0),
      monthCount: Number(row?.month_count ?? 0),
    };
  }

  replaceAll(pages: PageFile[], posts: PostFile[], media: MediaEntry[], contentHash: string, now: Date): Promise<SiteImportSummary> {
    return this.em.transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(hashtext('content-import:site'))`);
      const pageSummary = await syncPublished(em, ContentPageSchema, (row) => (row as PageFile).slug, pages, now);
      const postSummary = await syncPublished(em, BlogPostSchema, (row) => (row as PostFile).slug, posts, now);
      if ([pageSummary, postSummary].some((s) => s.created + s.updated + s.unpublished > 0)) await refreshSearchWords(em, 'site', SITE_WORDS);
      await em.upsert(ContentImportSchema, { kind: 'site', contentHash, importedAt: now, data: media });
      return { pages: pageSummary, posts: postSummary };
    });
  }
}
