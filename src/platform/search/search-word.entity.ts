import { defineEntity, p } from '@mikro-orm/core';

/**
 * The lexicon: each published word of a source ('levels', 'site') once, with its English stem and
 * how many documents hold it. Written by the sources' imports (search-words.ts), read by the
 * search for spelling corrections through its trigram index.
 */
export const SearchWordSchema = defineEntity({
  name: 'SearchWord',
  tableName: 'search_words',
  indexes: [
    { name: 'search_words_word_index', expression: 'create index "search_words_word_index" on "search_words" using gin ("word" gin_trgm_ops)' },
    { name: 'search_words_stem_index', properties: ['stem'] },
  ],
  properties: {
    source: p.string().length(16).primary(),
    word: p.string().length(64).primary(),
    stem: p.string().length(64),
    documents: p.integer(),
  },
});
