import type { WordCheck } from './search-query';

/** The words the site's published text holds: which of these it knows, and the closest it has to the others. */
export abstract class SpellingLexicon {
  abstract check(words: string[]): Promise<Map<string, WordCheck>>;
}
