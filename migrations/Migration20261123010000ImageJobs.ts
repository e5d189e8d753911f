import { Migration } from '@mikro-orm/migrations';

/** The image tool's jobs: the row is the job's truth (its queue message carries only the id). */
export class Migration20261123010000ImageJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "image_jobs" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "conversion" varchar(20) not null,
      "source" varchar(10) not null check ("source" in ('upload', 'url')),
      "source_url" varchar(2048) null,
      "status" varchar(10) not null check ("status" in ('queued', 'running', 'succeeded', 'failed')),
      "error_code" varchar(60) null,
      "error_message" varchar(300) null,
      "input_width" integer null,
      "input_height" integer null,
      "result_width" integer null,
      "result_height" integer null,
      "shrunk" boolean not null default false,
      "attempts" integer not null default 0,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "finished_at" timestamptz null,
      "files_deleted_at" timestamptz null
    );`);
    this.addSql(`create index "image_jobs_user_id_created_at_index" on "image_jobs" ("user_id", "created_at");`);
    this.addSql(`create index "image_jobs_unfinished_index" on "image_jobs" ("created_at") where "status" in ('queued', 'running');`);
    this.addSql(`create index "image_jobs_files_index" on "image_jobs" ("created_at") where "files_deleted_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "image_jobs";`);
  }
}
