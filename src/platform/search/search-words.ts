import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Makes the lexicon's words of `source` those of `documents` (a fixed SQL query selecting one
 * `to_tsvector('simple', ...)` per published document), inside the caller's transaction, after
 * its writes. Kept: words of 3 to 64 letters that are not English stop words.
 */
export async function refreshSearchWords(em: EntityManager, source: string, documents: string): Promise<void> {
  await em.flush();
  await em.execute('delete from search_words where source = ?', [source]);
  await em.execute(
    `insert into search_words (source, word, stem, documents)
     select ?, word, (ts_lexize('english_stem', word))[1], ndoc from ts_stat(?)
     where length(word) between 3 and 64 and word ~ '^[[:alpha:]]+$' and (ts_lexize('english_stem', word))[1] is not null`,
    [source, documents],
  );
}
