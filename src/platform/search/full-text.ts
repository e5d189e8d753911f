import type { SearchTerms } from 'src/contracts/search';

const WORD = /^[\p{L}\p{N}]+$/u;

/**
 * The tsquery texts of a search: `match` filters and ranks (every word, or any), `every` tells a
 * title holding them all, `phrase` the words side by side, `any` what is highlighted. Words are
 * letters and digits only (anything else is dropped), so quoting each is the whole escaping.
 */
export function tsQueries(terms: SearchTerms): { match: string; every: string; phrase: string; any: string } {
  const words = terms.words.filter((word) => WORD.test(word)).map((word) => `'${word}'`);
  const every = words.join(' & ');
  const any = words.join(' | ');
  return { match: terms.match === 'all' ? every : any, every, phrase: words.join(' <-> '), any };
}

/** ts_headline's options as SQL: the markers MARK_START and MARK_END (src/contracts/search.ts) are chr(2) and chr(3). */
const options = (text: string) => `'${text}, StartSel=' || chr(2) || ', StopSel=' || chr(3)`;
/** A whole title, every match marked. */
const TITLE_OPTIONS = options('HighlightAll=true');
/** Two passages of 8 to 18 words around the matches (the start of the text when nothing matches). */
const SNIPPET_OPTIONS = options('MaxFragments=2, MaxWords=18, MinWords=8, ShortWord=2, FragmentDelimiter=" … "');

/** A text for ts_headline: marker characters taken out, so only ts_headline puts them in. */
const unmarked = (sql: string) => `translate(${sql}, chr(2) || chr(3), '')`;

/**
 * The SQL a module's search shares, over its table's weighted `search` tsvector (title weight A,
 * text B): a `q` row with the queries (put `with ${with}` first, its parameters before the
 * others'), the filter, tier, rank and the marked title and snippet. Run `title` and `snippet` on
 * the rows kept only: ts_headline reads the whole text.
 */
export function fullTextSql(terms: SearchTerms) {
  const q = tsQueries(terms);
  return {
    with: `q as (select to_tsquery('english', ?) as match, to_tsquery('english', ?) as every, to_tsquery('english', ?) as phrase, to_tsquery('english', ?) as any)`,
    params: [q.match, q.every, q.phrase, q.any],
    matches: (search: string) => `${search} @@ q.match`,
    /** 2 every word in the title, 1 the words side by side, 0 elsewhere (the caller puts 3 above). */
    tier: (title: string, search: string) => `case when to_tsvector('english', ${title}) @@ q.every then 2 when ${search} @@ q.phrase then 1 else 0 end`,
    rank: (search: string) => `ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', ${search}, q.match)`,
    title: (title: string) => `ts_headline('english', ${unmarked(title)}, q.any, ${TITLE_OPTIONS})`,
    /** `text` past its first line, which repeats the title. */
    snippet: (text: string) => `ts_headline('english', ${unmarked(`substr(${text}, strpos(${text}, E'\\n') + 1)`)}, q.any, ${SNIPPET_OPTIONS})`,
  };
}
