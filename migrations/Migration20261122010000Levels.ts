import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010000Levels extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "levels" (
      "number" int not null primary key,
      "title" varchar(120) not null,
      "difficulty" varchar(8) not null,
      "reference_seconds" int not null,
      "unlocks_at" int null,
      "intro_html" text not null,
      "tips" jsonb not null,
      "hints" jsonb not null,
      "steps" jsonb not null,
      "video" jsonb null,
      "game_version" varchar(32) not null,
      "verified_on" date not null,
      "search_text" text not null,
      "source_hash" varchar(64) not null,
      "published" boolean not null default true,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "levels_difficulty_check" check ("difficulty" in ('easy', 'medium', 'hard'))
    );`);
    // Full-text search over title (weight A) and guide text (weight B), kept by PostgreSQL itself.
    this.addSql(`alter table "levels" add column "search" tsvector generated always as (
      setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "search_text"), 'B')
    ) stored;`);
    this.addSql(`create index "levels_search_index" on "levels" using gin ("search");`);
    this.addSql(`create index "levels_published_difficulty_index" on "levels" ("published", "difficulty", "number");`);

    this.addSql(`create table "guide_requests" (
      "level_number" int not null,
      "voter_hash" varchar(64) not null,
      "created_at" timestamptz not null,
      constraint "guide_requests_pkey" primary key ("level_number", "voter_hash")
    );`);
    this.addSql(`create table "guide_feedback" (
      "level_number" int not null,
      "voter_hash" varchar(64) not null,
      "helpful" boolean not null,
      "reason" varchar(32) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "guide_feedback_pkey" primary key ("level_number", "voter_hash")
    );`);
    this.addSql(`create table "content_imports" (
      "kind" varchar(32) not null primary key,
      "content_hash" varchar(64) not null,
      "imported_at" timestamptz not null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "content_imports";`);
    this.addSql(`drop table if exists "guide_feedback";`);
    this.addSql(`drop table if exists "guide_requests";`);
    this.addSql(`drop table if exists "levels";`);
  }
}
