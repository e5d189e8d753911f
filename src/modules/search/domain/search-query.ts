import { parseLevelSearch } from 'src/contracts/level-number';
import { SEARCH_QUERY_MAX, SEARCH_WORD_MAX, SEARCH_WORDS_MAX } from 'src/contracts/search';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;
/** Said beside a level number, these name nothing else: "level 27" is level 27. */
const LEVEL_WORDS = new Set(['level', 'levels', 'lvl', 'lv']);

export interface SearchQuery {
  /** What was typed, control characters and runs of spaces made single spaces, cut to the maximum. */
  text: string;
  /** Its words, lower case, each once, in order: letters and digits only, at most SEARCH_WORDS_MAX. */
  tokens: string[];
  /** The words to look for in the text: the tokens less a level number and the word "level" beside it. */
  words: string[];
  /** A level number the query names (a whole token from 1 to the search maximum). */
  number?: number;
}

/** Reads a query: what every search does first, the API and the page alike. */
export function parseSearchQuery(raw: string, searchMax: number): SearchQuery {
  const text = raw.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim().slice(0, SEARCH_QUERY_MAX).trim();
  const tokens = [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((token) => token && token.length <= SEARCH_WORD_MAX),
    ),
  ].slice(0, SEARCH_WORDS_MAX);
  const numberToken = tokens.find((token) => /^\d+$/.test(token) && parseLevelSearch(token, searchMax).ok);
  if (numberToken === undefined) return { text, tokens, words: tokens };
  return {
    text,
    tokens,
    words: tokens.filter((token) => token !== numberToken && !LEVEL_WORDS.has(token)),
    number: Number(numberToken),
  };
}

/** What the lexicon knows of a word: found (or an English stop word), and the closest word it has. */
export interface WordCheck {
  known: boolean;
  suggestion?: string;
}

/** Words the lexicon is asked about: digits and words under 3 letters are taken as typed. */
export const needsCheck = (word: string) => word.length >= 3 && !/^\d+$/.test(word);

/**
 * The words to search for: a known word as it is, an unknown one replaced by the lexicon's closest
 * word (a correction), or left out when the lexicon has nothing close (unknown).
 */
export function correctWords(words: string[], checks: ReadonlyMap<string, WordCheck>) {
  const corrections: { from: string; to: string }[] = [];
  const unknown: string[] = [];
  const used: string[] = [];
  for (const word of words) {
    const check = checks.get(word);
    if (!needsCheck(word) || !check || check.known) used.push(word);
    else if (check.suggestion) {
      corrections.push({ from: word, to: check.suggestion });
      used.push(check.suggestion);
    } else unknown.push(word);
  }
  return { words: [...new Set(used)], corrections, unknown };
}
