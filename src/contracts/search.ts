import type { Difficulty } from './levels';

/** The longest query the search takes (the page cuts a longer one, the API refuses it). */
export const SEARCH_QUERY_MAX = 100;
/** Words of a query looked for (the rest are ignored), and the longest word. */
export const SEARCH_WORDS_MAX = 8;
export const SEARCH_WORD_MAX = 40;
/** Hits shown per kind; each group also says how many matched. */
export const SEARCH_LIMITS = { levels: 10, posts: 5, pages: 5 } as const;

export type SearchKind = keyof typeof SEARCH_LIMITS;

/** Put around each match by ts_headline (src/platform/search/full-text.ts): control characters, which no guide text keeps. */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

/** A piece of a title or snippet; `mark` for the words the query matched (shown as <mark>). */
export interface Segment {
  text: string;
  mark?: true;
}

interface Hit {
  /** Where the hit is on this site: /levels/27, /blog/2026/hints-first, /privacy-policy. */
  url: string;
  title: Segment[];
  /** Up to two passages around the matches, joined with " … ". */
  snippet: Segment[];
}

export interface LevelHit extends Hit {
  number: number;
  difficulty: Difficulty;
}

export interface PostHit extends Hit {
  slug: string;
  /** ISO date and time */
  publishedAt: string;
}

export interface PageHit extends Hit {
  slug: string;
}

/** One kind's hits, best first; `total` counts every match, `hits` holds the first few. */
export type SearchGroup =
  | { kind: 'levels'; total: number; hits: LevelHit[] }
  | { kind: 'posts'; total: number; hits: PostHit[] }
  | { kind: 'pages'; total: number; hits: PageHit[] };

/** A word the search replaced by the closest word the site's text has. */
export interface SearchCorrection {
  from: string;
  to: string;
}

/** GET /api/v1/search and the page /search: results grouped by kind, the best group first. */
export interface SearchResults {
  /** The query as searched (control characters and extra spaces taken out). */
  query: string;
  /** The words looked for, after corrections: what "Showing results for" names. */
  searched: string;
  corrections: SearchCorrection[];
  /** Words neither found nor close to any word of the site: left out of the search. */
  unknown: string[];
  /** 'all': every hit has every word; 'any': no hit had them all, so these have some. */
  match: 'all' | 'any';
  /** Only kinds with hits. */
  groups: SearchGroup[];
}

/**
 * What a module's search is asked (built by the search module): words of letters and digits only,
 * each hit having all of them or any, and a level number the query named.
 */
export interface SearchTerms {
  words: string[];
  match: 'all' | 'any';
  number?: number;
}

/**
 * A module's hit before the search module ranks it: `tier` (3 the level named by number, 2 every
 * word in the title, 1 the words side by side in the text, 0 elsewhere), `rank` (PostgreSQL's
 * ts_rank_cd, title words weighing most), and title and snippet with each match between the
 * marker characters MARK_START and MARK_END.
 */
export interface RankedHit {
  tier: number;
  rank: number;
  title: string;
  snippet: string;
}

export interface RankedHits<H> {
  total: number;
  hits: (H & RankedHit)[];
}

/** Search's section of the page data (src/modules/search/adapters/pages/search.pages.ts). */
export interface SearchPages {
  /** The one search over guides, posts and pages (the query as typed; the page cuts it to 100 characters). */
  results(query: string): Promise<SearchResults>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly search: SearchPages;
  }
}
