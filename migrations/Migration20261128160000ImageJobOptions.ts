import { Migration } from '@mikro-orm/migrations';

/**
 * Image jobs at full size (issue 31): what the user chose besides the conversion, the input's
 * SHA-256 (the same image twice within 24 hours costs nothing), the result's format, progress
 * while running, notes for the page, a URL job's repeat of an earlier one, and the result's planned size (the
 * queue estimate weighs a waiting job by it), and its place in the fair queue (fair-queue.ts).
 */
export class Migration20261128160000ImageJobOptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "image_jobs"
      add column "options" jsonb not null default '{"scale":null,"width":null,"noise":"auto","format":"auto","quality":90}',
      add column "input_sha256" char(64) null,
      add column "result_format" varchar(5) null check ("result_format" in ('png', 'webp', 'jpeg')),
      add column "progress_done" integer null,
      add column "progress_total" integer null,
      add column "notes" jsonb not null default '[]',
      add column "repeat_of" uuid null,
      add column "repeat_converted_at" timestamptz null,
      add column "planned_megapixels" real null,
      add column "queue_priority" integer not null default 1;`);
    // The repeat's look-up: a user's jobs of one image, newest first.
    this.addSql(`create index "image_jobs_repeat_index" on "image_jobs" ("user_id", "input_sha256", "created_at") where "input_sha256" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "image_jobs_repeat_index";`);
    this.addSql(`alter table "image_jobs"
      drop column "options", drop column "input_sha256", drop column "result_format", drop column "progress_done",
      drop column "progress_total", drop column "notes", drop column "repeat_of", drop column "repeat_converted_at", drop column "planned_megapixels", drop column "queue_priority";`);
  }
}
