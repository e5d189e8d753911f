import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { SearchGroup, SearchResults, SearchTerms } from 'src/contracts/search';
import { SiteContentService } from 'src/modules/content';
import { LevelsService } from 'src/modules/levels';
import { segments } from '../domain/highlight';
import { orderGroups } from '../domain/ranking';
import { correctWords, needsCheck, parseSearchQuery } from '../domain/search-query';
import { SpellingLexicon } from '../domain/spelling-lexicon.port';

const NONE = { total: 0, hits: [] };
const marked = <H extends { title: string; snippet: string }>(hit: H) => ({ title: segments(hit.title), snippet: segments(hit.snippet) });

/**
 * One search over the guides, the blog posts and the content pages: words the site does not have
 * are corrected to the closest it has (pg_trgm), then each module's full-text search runs; when
 * nothing has every word, anything with some of them. A number finds its level's guide.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly levels: LevelsService,
    private readonly content: SiteContentService,
    private readonly lexicon: SpellingLexicon,
    private readonly config: AppConfig,
  ) {}

  async search(raw: string): Promise<SearchResults> {
    const query = parseSearchQuery(raw, this.config.public.levels.searchMax);
    const checks = await this.lexicon.check(query.words.filter(needsCheck));
    const { words, corrections, unknown } = correctWords(query.words, checks);
    const replaced = new Map(corrections.map((c) => [c.from, c.to]));
    const searched = [...new Set(query.tokens.filter((token) => !unknown.includes(token)).map((token) => replaced.get(token) ?? token))].join(' ');

    let terms: SearchTerms = { words, match: 'all', ...(query.number !== undefined ? { number: query.number } : {}) };
    let found = await this.find(terms);
    if (words.length > 1 && found.every((group) => group.total === 0)) {
      terms = { ...terms, match: 'any' };
      found = await this.find(terms);
    }
    return { query: query.text, searched, corrections, unknown, match: terms.match, groups: orderGroups(found).map(toGroup) };
  }

  private async find(terms: SearchTerms) {
    if (!terms.words.length && terms.number === undefined) return [];
    const [levels, { posts, pages }] = await Promise.all([
      this.levels.search(terms),
      terms.words.length ? this.content.search(terms) : { posts: NONE, pages: NONE },
    ]);
    return [
      { kind: 'levels' as const, ...levels },
      { kind: 'posts' as const, ...posts },
      { kind: 'pages' as const, ...pages },
    ];
  }
}

type Found = Awaited<ReturnType<SearchService['find']>>[number];

/** A module's ranked hits as the API and the page show them: links, and text in segments. */
function toGroup(group: Found): SearchGroup {
  switch (group.kind) {
    case 'levels':
      return { kind: 'levels', total: group.total, hits: group.hits.map((h) => ({ url: `/levels/${h.number}`, number: h.number, difficulty: h.difficulty, ...marked(h) })) };
    case 'posts':
      return { kind: 'posts', total: group.total, hits: group.hits.map((h) => ({ url: `/blog/${h.slug}`, slug: h.slug, publishedAt: h.publishedAt, ...marked(h) })) };
    case 'pages':
      return { kind: 'pages', total: group.total, hits: group.hits.map((h) => ({ url: `/${h.slug}`, slug: h.slug, ...marked(h) })) };
  }
}
