import { Migration } from '@mikro-orm/migrations';

/**
 * What players say, used: `guide_views` counts guide page views per level per UTC day (each web
 * process counts in memory and adds its counts here every minute, so processes add up), and
 * `guide_reports.handled_at` says when an admin marked a report handled (null: still open).
 */
export class Migration20261126120000GuideInsights extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "guide_views" (
      "level_number" int not null,
      "day" date not null,
      "views" int not null,
      primary key ("level_number", "day")
    );`);
    this.addSql(`alter table "guide_reports" add column "handled_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "guide_reports" drop column if exists "handled_at";`);
    this.addSql(`drop table if exists "guide_views" cascade;`);
  }
}
