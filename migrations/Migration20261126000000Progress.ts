import { Migration } from '@mikro-orm/migrations';

/**
 * Players' progress. `progress_marks`: counts only, one row per browser (its hashed vid cookie) per
 * level, for "how many marked it solved or stuck". `account_progress`: a signed-in player's marks,
 * one row per level (state 'none' remembers a mark taken back, so a merge cannot revive it), and
 * `account_progress_resets`: when the player last cleared it all (null: never), one row per account
 * that syncs, locked by each sync. All three keep no more than counts or go with the account.
 */
export class Migration20261126000000Progress extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "progress_marks" (
      "level_number" int not null,
      "voter_hash" varchar(64) not null,
      "state" varchar(8) not null,
      "updated_at" timestamptz not null,
      primary key ("level_number", "voter_hash")
    );`);
    this.addSql(`alter table "progress_marks" add constraint "progress_marks_state_check" check (state in ('solved', 'stuck'));`);
    this.addSql(`create table "account_progress" (
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "level_number" int not null,
      "state" varchar(8) not null,
      "changed_at" timestamptz not null,
      primary key ("user_id", "level_number")
    );`);
    this.addSql(`alter table "account_progress" add constraint "account_progress_state_check" check (state in ('solved', 'stuck', 'none'));`);
    this.addSql(`create table "account_progress_resets" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "cleared_at" timestamptz null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "account_progress_resets" cascade;`);
    this.addSql(`drop table if exists "account_progress" cascade;`);
    this.addSql(`drop table if exists "progress_marks" cascade;`);
  }
}
