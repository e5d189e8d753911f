import { Migration } from '@mikro-orm/migrations';

/** Players' reports of a problem with a level's guide; deleted after 180 days. */
export class Migration20261123191629GuideReports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "guide_reports" (
      "id" uuid not null primary key,
      "level_number" int not null,
      "kind" varchar(16) not null,
      "message" varchar(1000) null,
      "created_at" timestamptz not null,
      "notified_at" timestamptz null
    );`);
    this.addSql(`create index "guide_reports_created_at_index" on "guide_reports" ("created_at");`);
    this.addSql(`alter table "guide_reports" add constraint "guide_reports_kind_check" check (kind in ('wrong_step', 'video_mismatch', 'other'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "guide_reports" cascade;`);
  }
}
