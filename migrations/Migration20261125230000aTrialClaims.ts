import { Migration } from '@mikro-orm/migrations';

/**
 * The free trial is granted once per normalised address (README, Accounts): one row per account
 * that was considered, `granted` true for at most one account per address. Accounts that already
 * have their trial are recorded by their lower-case address (the first of a pair keeps it).
 */
export class Migration20261125230000aTrialClaims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "trial_claims" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "address" varchar(256) not null,
      "granted" boolean not null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create unique index "trial_claims_granted_address_unique" on "trial_claims" ("address") where "granted";`);
    this.addSql(`insert into "trial_claims" ("user_id", "address", "granted")
      select l."user_id", lower(u."email"), true from "credit_lots" l join "users" u on u."id" = l."user_id"
       where l."source" = 'trial' order by l."created_at"
      on conflict do nothing;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "trial_claims";`);
  }
}
