import type { WordCheck } from '../domain/search-query';
import { SpellingLexicon } from '../domain/spelling-lexicon.port';

/**
 * The site's words for specs: the words given are known, each of `suggestions` is close to its
 * correction, the rest unknown. PgTrgmSpellingLexicon is proven by test/search.int-spec.ts.
 */
export class FakeSpellingLexicon extends SpellingLexicon {
  readonly asked: string[][] = [];
  readonly known: Set<string>;

  constructor(
    known: Iterable<string> = [],
    private readonly suggestions: Record<string, string> = {},
  ) {
    super();
    this.known = new Set(known);
  }

  async check(words: string[]): Promise<Map<string, WordCheck>> {
    this.asked.push(words);
    return new Map(words.map((w): [string, WordCheck] => [w, this.known.has(w) ? { known: true } : this.suggestions[w] ? { known: false, suggestion: this.suggestions[w] } : { known: false }]));
  }
}
