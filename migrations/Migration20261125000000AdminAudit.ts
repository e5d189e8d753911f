import { Migration } from '@mikro-orm/migrations';

/**
 * The admin's trail: who changed a balance (credit_events.actor_id, null for the system and the
 * user's own spending), which order a gateway event belonged to (the admin order page lists them),
 * and every admin refund with its idempotency key, so a retried request refunds once and answers
 * with the first result.
 */
export class Migration20261125000000AdminAudit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "credit_events" add column "actor_id" uuid null references "users" ("id") on delete set null;`);
    this.addSql(`create index "credit_events_lot_id_index" on "credit_events" ("lot_id");`);
    this.addSql(`alter table "payment_events" add column "order_id" uuid null references "orders" ("id") on delete cascade;`);
    this.addSql(`create index "payment_events_order_id_index" on "payment_events" ("order_id", "received_at");`);
    this.addSql(`create table "order_refunds" (
      "id" uuid not null default gen_random_uuid() primary key,
      "order_id" uuid not null references "orders" ("id") on delete cascade,
      "idempotency_key" varchar(100) not null,
      "amount_cents" integer not null check ("amount_cents" > 0),
      "refunded_cents" integer not null check ("refunded_cents" >= 0),
      "admin_id" uuid null references "users" ("id") on delete set null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`alter table "order_refunds" add constraint "order_refunds_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "order_refunds_order_id_index" on "order_refunds" ("order_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_refunds";`);
    this.addSql(`drop index if exists "payment_events_order_id_index";`);
    this.addSql(`alter table "payment_events" drop column if exists "order_id";`);
    this.addSql(`drop index if exists "credit_events_lot_id_index";`);
    this.addSql(`alter table "credit_events" drop column if exists "actor_id";`);
  }
}
