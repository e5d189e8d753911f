import { Migration } from '@mikro-orm/migrations';

/**
 * Progress syncs send what changed: each account counts the syncs that changed an entry
 * (`account_progress_resets.revision`) and each entry keeps the revision that last changed it, so
 * a browser's cursor (the revision it last saw) finds what changed since. Existing rows start at 0:
 * every browser's first sync is the full merge anyway.
 */
export class Migration20261128195000ProgressRevisions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "account_progress" add column "revision" int not null default 0;`);
    this.addSql(`alter table "account_progress_resets" add column "revision" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account_progress" drop column "revision";`);
    this.addSql(`alter table "account_progress_resets" drop column "revision";`);
  }
}
