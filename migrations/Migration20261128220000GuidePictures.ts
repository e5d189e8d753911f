import { Migration } from '@mikro-orm/migrations';

/**
 * Guides split into puzzles (`levels.puzzles`, null for a one-ladder guide) and the responsive
 * copies of their step pictures (`guide_pictures`, AVIF and WebP by immutable file name, written
 * by the content import, served at /guide-images/{file}).
 */
export class Migration20261128220000GuidePictures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "levels" add column "puzzles" jsonb null;`);
    this.addSql(`create table "guide_pictures" (
      "file" varchar(40) not null primary key,
      "hash" varchar(16) not null,
      "content_type" varchar(16) not null,
      "bytes" bytea not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "guide_pictures_hash_index" on "guide_pictures" ("hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "guide_pictures" cascade;`);
    this.addSql(`alter table "levels" drop column if exists "puzzles";`);
  }
}
