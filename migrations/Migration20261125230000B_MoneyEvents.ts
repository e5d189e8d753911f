import { Migration } from '@mikro-orm/migrations';

/**
 * Money events (issue 22, helper b): what a lot's order wants taken back (a refund's share, a dispute)
 * and what was actually taken, so credits coming back to such a lot (a failed job) are taken back
 * too and a won dispute or a failed refund gives back exactly what was taken; restorations in the
 * history ('restore') and on the order (a won dispute, failed refunds); the success page's look-ups at Stripe counted per order; and signed webhook
 * events we refused (unreadable, or of the other mode), kept with the reason for the admin.
 */
export class Migration20261125230000B_MoneyEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "credit_lots" add column "clawback_target" integer not null default 0 check ("clawback_target" >= 0);`);
    this.addSql(`alter table "credit_lots" add column "clawback_taken" integer not null default 0 check ("clawback_taken" >= 0);`);
    this.addSql(`alter table "credit_events" drop constraint if exists "credit_events_kind_check";`);
    this.addSql(`alter table "credit_events" add constraint "credit_events_kind_check" check ("kind" in ('grant', 'spend', 'refund', 'revoke', 'expire', 'restore'));`);
    this.addSql(`alter table "orders" add column "gateway_lookups" integer not null default 0;`);
    this.addSql(`alter table "orders" add column "dispute_won_at" timestamptz null;`);
    this.addSql(`alter table "orders" add column "refund_failed_cents" integer not null default 0 check ("refund_failed_cents" >= 0);`);
    this.addSql(`alter table "payment_events" add column "problem" varchar(300) null;`);
    this.addSql(`create index "payment_events_problem_index" on "payment_events" ("received_at") where "problem" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "payment_events_problem_index";`);
    this.addSql(`alter table "payment_events" drop column if exists "problem";`);
    this.addSql(`alter table "orders" drop column if exists "refund_failed_cents";`);
    this.addSql(`alter table "orders" drop column if exists "dispute_won_at";`);
    this.addSql(`alter table "orders" drop column if exists "gateway_lookups";`);
    this.addSql(`alter table "credit_events" drop constraint if exists "credit_events_kind_check";`);
    this.addSql(`alter table "credit_events" add constraint "credit_events_kind_check" check ("kind" in ('grant', 'spend', 'refund', 'revoke', 'expire'));`);
    this.addSql(`alter table "credit_lots" drop column if exists "clawback_taken";`);
    this.addSql(`alter table "credit_lots" drop column if exists "clawback_target";`);
  }
}
