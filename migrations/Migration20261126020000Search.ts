import { Migration } from '@mikro-orm/migrations';

/** The words of one source's published text, as src/platform/search/search-words.ts writes them. */
const wordsOf = (source: string, documents: string) => `insert into "search_words" ("source", "word", "stem", "documents")
  select '${source}', word, (ts_lexize('english_stem', word))[1], ndoc from ts_stat('${documents.replace(/'/g, "''")}')
  where length(word) between 3 and 64 and word ~ '^[[:alpha:]]+$' and (ts_lexize('english_stem', word))[1] is not null;`;

/**
 * One search over guides, posts and pages. `pg_trgm` (a trusted extension: the database owner may
 * create it; the embedded database loads it with PGlite) gives trigram similarity; `search_words`
 * is the lexicon of every published word, for spelling corrections (the PostgreSQL documentation's
 * way to pair pg_trgm with full-text search). Content pages get the plain text and the weighted
 * tsvector guides and posts already have, filled here from their HTML until their next import.
 */
export class Migration20261126020000Search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "search_words" (
      "source" varchar(16) not null,
      "word" varchar(64) not null,
      "stem" varchar(64) not null,
      "documents" int not null,
      primary key ("source", "word")
    );`);
    this.addSql(`create index "search_words_word_index" on "search_words" using gin ("word" gin_trgm_ops);`);
    this.addSql(`create index "search_words_stem_index" on "search_words" ("stem");`);

    this.addSql(`alter table "content_pages" add column "search_text" text not null default '';`);
    this.addSql(`update "content_pages" set "search_text" = "title" || E'\\n' || "description" || E'\\n' || trim(regexp_replace(
      replace(replace(replace(replace(regexp_replace("html", '<[^>]*>', ' ', 'g'), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&amp;', '&'),
      '\\s+', ' ', 'g'));`);
    this.addSql(`alter table "content_pages" alter column "search_text" drop default;`);
    this.addSql(`alter table "content_pages" add column "search" tsvector generated always as (
      setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "search_text"), 'B')
    ) stored;`);
    this.addSql(`create index "content_pages_search_index" on "content_pages" using gin ("search");`);

    this.addSql(wordsOf('levels', `select to_tsvector('simple', search_text) from levels where published`));
    this.addSql(
      wordsOf(
        'site',
        `select to_tsvector('simple', search_text) from blog_posts where published union all select to_tsvector('simple', search_text) from content_pages where published`,
      ),
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "content_pages_search_index";`);
    this.addSql(`alter table "content_pages" drop column if exists "search";`);
    this.addSql(`alter table "content_pages" drop column if exists "search_text";`);
    this.addSql(`drop table if exists "search_words" cascade;`);
  }
}
