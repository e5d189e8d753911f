import { Migration } from '@mikro-orm/migrations';

/**
 * Receipts, reminders and account deletion (issue 37): an order keeps Stripe's hosted invoice; an
 * order and a trial claim outlive their account (the law keeps payments; the trial rule keeps the
 * address), so they lose their cascade, and trial claims keep the address only as a SHA-256 hash;
 * the reminders sent (one per event) and each account's mail switches; an outbox message's
 * one-click unsubscribe link (RFC 8058).
 */
export class Migration20261128210000MoneyAndAccounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "invoice_url" varchar(1000) null;`);
    this.addSql(`alter table "orders" drop constraint if exists "orders_user_id_fkey";`);
    this.addSql(`alter table "trial_claims" drop constraint if exists "trial_claims_user_id_fkey";`);
    this.addSql(`update "trial_claims" set "address" = encode(sha256(convert_to("address", 'UTF8')), 'hex');`);
    this.addSql(`create table "credit_reminders" (
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "kind" varchar(16) not null,
      "ref" varchar(200) not null,
      "created_at" timestamptz not null default now(),
      constraint "credit_reminders_pkey" primary key ("user_id", "kind", "ref")
    );`);
    this.addSql(`create table "mail_preferences" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "low_balance" boolean not null default true,
      "expiry" boolean not null default true,
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`alter table "mail_outbox" add column "list_unsubscribe" varchar(1000) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "mail_outbox" drop column "list_unsubscribe";`);
    this.addSql(`drop table if exists "mail_preferences";`);
    this.addSql(`drop table if exists "credit_reminders";`);
    this.addSql(`alter table "orders" drop column "invoice_url";`);
  }
}
