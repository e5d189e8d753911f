import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000Content extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "content_pages" (
      "slug" varchar(80) not null primary key,
      "title" varchar(100) not null,
      "description" varchar(300) not null,
      "html" text not null,
      "updated_on" date not null,
      "source_hash" varchar(64) not null,
      "published" boolean not null default true,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create table "blog_posts" (
      "slug" varchar(420) not null primary key,
      "title" varchar(120) not null,
      "description" varchar(300) not null,
      "html" text not null,
      "published_at" timestamptz not null,
      "tags" text[] not null,
      "search_text" text not null,
      "source_hash" varchar(64) not null,
      "published" boolean not null default true,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`alter table "blog_posts" add column "search" tsvector generated always as (
      setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "search_text"), 'B')
    ) stored;`);
    this.addSql(`create index "blog_posts_search_index" on "blog_posts" using gin ("search");`);
    this.addSql(`create index "blog_posts_tags_index" on "blog_posts" using gin ("tags");`);
    this.addSql(`create index "blog_posts_published_at_index" on "blog_posts" ("published", "published_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_posts";`);
    this.addSql(`drop table if exists "content_pages";`);
  }
}
