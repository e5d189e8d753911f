import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000ErrorReports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "error_reports" (
      "id" serial primary key,
      "fingerprint" varchar(64) not null,
      "error_type" varchar(32) not null,
      "origin_type" smallint not null,
      "message" text not null,
      "backtrace" text null,
      "user_email" varchar(256) null,
      "path" text null,
      "build_id" varchar(64) null,
      "count" int not null default 1,
      "first_seen_at" timestamptz not null,
      "last_seen_at" timestamptz not null
    );`);
    this.addSql(`alter table "error_reports" add constraint "error_reports_fingerprint_unique" unique ("fingerprint");`);
    this.addSql(`create index "error_reports_last_seen_at_index" on "error_reports" ("last_seen_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "error_reports" cascade;`);
  }
}
