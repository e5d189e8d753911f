import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050000MailOutbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "mail_outbox" (
      "id" uuid not null default gen_random_uuid() primary key,
      "to" varchar(256) not null,
      "subject" varchar(200) not null,
      "text" text not null,
      "html" text not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "mail_outbox_created_at_index" on "mail_outbox" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "mail_outbox";`);
  }
}
