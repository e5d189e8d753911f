import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { WordCheck } from '../../domain/search-query';
import { SpellingLexicon } from '../../domain/spelling-lexicon.port';

/**
 * How close a word must be to be offered instead: pg_trgm's similarity (shared trigrams over all
 * trigrams). 1/3 takes "pharoah" for "pharaoh" and "telscope" for "telescope" but not "chair" for
 * "chandeleir"; the `%` operator (threshold 0.3) finds the candidates through the trigram index.
 */
const SIMILARITY_MIN = 0.33;

/**
 * The lexicon in `search_words` (src/platform/search), through pg_trgm. A word is known when a
 * published word has its English stem ("keys" is "key"), or it is a stop word; the suggestion is
 * the most similar published word, then the one in the most documents.
 */
@Injectable()
export class PgTrgmSpellingLexicon extends SpellingLexicon {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async check(words: string[]): Promise<Map<string, WordCheck>> {
    if (!words.length) return new Map();
    const rows = await this.em.execute<{ word: string; known: boolean; suggestion: string | null }[]>(
      `select w.word,
              cardinality(ts_lexize('english_stem', w.word)) = 0
                or exists (select 1 from search_words s where s.stem = (ts_lexize('english_stem', w.word))[1]) as known,
              (select s.word from search_words s where s.word % w.word and similarity(s.word, w.word) >= ?
               order by similarity(s.word, w.word) desc, s.documents desc, s.word limit 1) as suggestion
       from (values ${words.map(() => '(?::text)').join(', ')}) as w(word)`,
      [SIMILARITY_MIN, ...words],
    );
    return new Map(rows.map((row) => [row.word, { known: row.known, ...(row.suggestion ? { suggestion: row.suggestion } : {}) }]));
  }
}
