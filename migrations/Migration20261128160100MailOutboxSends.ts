import { Migration } from '@mikro-orm/migrations';

/** Mail outbox: attempts counted per entry, a lease while a send is in flight, and the give-up kept for /admin. */
export class Migration20261128160100MailOutboxSends extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "mail_outbox"
      add column "attempts" int not null default 0,
      add column "unknown_outcomes" int not null default 0,
      add column "sending_until" timestamptz null,
      add column "failed_at" timestamptz null,
      add column "last_error" varchar(500) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "mail_outbox" drop column "attempts", drop column "unknown_outcomes", drop column "sending_until", drop column "failed_at", drop column "last_error";`);
  }
}
