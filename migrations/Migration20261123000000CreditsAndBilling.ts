import { Migration } from '@mikro-orm/migrations';

/**
 * Credits (lots, charges, the history) and billing (orders, processed gateway events). The CHECK
 * constraints are the last line of defence of the ledger's rules: no lot below zero or above what
 * it was granted, one lot per source, one charge per idempotency key.
 */
export class Migration20261123000000CreditsAndBilling extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "credit_lots" (
      "id" uuid not null default gen_random_uuid() primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "source" varchar(16) not null check ("source" in ('trial', 'pack', 'donation', 'admin')),
      "source_ref" varchar(200) not null,
      "description" varchar(200) not null,
      "granted" integer not null check ("granted" > 0),
      "remaining" integer not null check ("remaining" >= 0 and "remaining" <= "granted"),
      "expires_at" timestamptz not null,
      "expiry_recorded_at" timestamptz null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`alter table "credit_lots" add constraint "credit_lots_source_ref_unique" unique ("source_ref");`);
    this.addSql(`create index "credit_lots_user_id_expires_at_index" on "credit_lots" ("user_id", "expires_at");`);
    this.addSql(`create index "credit_lots_unrecorded_expiry_index" on "credit_lots" ("expires_at") where "expiry_recorded_at" is null and "remaining" > 0;`);

    this.addSql(`create table "credit_charges" (
      "id" uuid not null default gen_random_uuid() primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "idempotency_key" varchar(200) not null,
      "amount" integer not null check ("amount" > 0),
      "state" varchar(10) not null check ("state" in ('held', 'captured', 'released')),
      "description" varchar(200) not null,
      "created_at" timestamptz not null default now(),
      "settled_at" timestamptz null
    );`);
    this.addSql(`alter table "credit_charges" add constraint "credit_charges_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "credit_charges_user_id_created_at_index" on "credit_charges" ("user_id", "created_at");`);
    this.addSql(`create index "credit_charges_held_index" on "credit_charges" ("created_at") where "state" = 'held';`);

    // Which lots a charge took its credits from, so a release puts them back exactly.
    this.addSql(`create table "credit_charge_parts" (
      "charge_id" uuid not null references "credit_charges" ("id") on delete cascade,
      "lot_id" uuid not null references "credit_lots" ("id") on delete cascade,
      "amount" integer not null check ("amount" > 0),
      primary key ("charge_id", "lot_id")
    );`);

    // The history: append-only, one row per change of a balance (grants, spends, refunds, take-backs, expiries).
    this.addSql(`create table "credit_events" (
      "id" bigint generated always as identity primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "kind" varchar(10) not null check ("kind" in ('grant', 'spend', 'refund', 'revoke', 'expire')),
      "credits" integer not null check ("credits" <> 0),
      "lot_id" uuid null references "credit_lots" ("id") on delete set null,
      "charge_id" uuid null references "credit_charges" ("id") on delete set null,
      "description" varchar(200) not null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "credit_events_user_id_id_index" on "credit_events" ("user_id", "id");`);

    this.addSql(`create table "orders" (
      "id" uuid not null default gen_random_uuid() primary key,
      "number" varchar(20) not null,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "kind" varchar(10) not null check ("kind" in ('pack', 'donation')),
      "pack_id" varchar(40) null,
      "description" varchar(120) not null,
      "credits" integer not null check ("credits" > 0),
      "validity_days" integer not null check ("validity_days" > 0),
      "amount_cents" integer not null check ("amount_cents" > 0),
      "refunded_cents" integer not null default 0 check ("refunded_cents" >= 0 and "refunded_cents" <= "amount_cents"),
      "credits_revoked" integer not null default 0 check ("credits_revoked" >= 0 and "credits_revoked" <= "credits"),
      "status" varchar(20) not null check ("status" in ('pending', 'paid', 'partially_refunded', 'refunded', 'disputed', 'canceled', 'expired', 'failed')),
      "gateway" varchar(10) not null check ("gateway" in ('stripe', 'local')),
      "gateway_session_id" varchar(255) null,
      "gateway_payment_ref" varchar(255) null,
      "payment_method" varchar(100) null,
      "created_at" timestamptz not null default now(),
      "paid_at" timestamptz null,
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`alter table "orders" add constraint "orders_number_unique" unique ("number");`);
    this.addSql(`alter table "orders" add constraint "orders_gateway_session_id_unique" unique ("gateway_session_id");`);
    this.addSql(`create index "orders_gateway_payment_ref_index" on "orders" ("gateway_payment_ref");`);
    this.addSql(`create index "orders_user_id_created_at_index" on "orders" ("user_id", "created_at");`);
    this.addSql(`create index "orders_pending_index" on "orders" ("created_at") where "status" = 'pending';`);

    // Gateway events already applied: a redelivery changes nothing.
    this.addSql(`create table "payment_events" (
      "id" varchar(255) not null primary key,
      "type" varchar(60) not null,
      "received_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "payment_events";`);
    this.addSql(`drop table if exists "orders";`);
    this.addSql(`drop table if exists "credit_events";`);
    this.addSql(`drop table if exists "credit_charge_parts";`);
    this.addSql(`drop table if exists "credit_charges";`);
    this.addSql(`drop table if exists "credit_lots";`);
  }
}
