import { Migration } from '@mikro-orm/migrations';

/**
 * Where players stop on a guide's hint ladders: one row per browser (its hashed vid cookie, salted
 * as progress_marks') per guide per ladder (a puzzle id, or 'level'), with how many hints it had
 * revealed at its last "Solved it" or "Still stuck". Counts only, never who.
 */
export class Migration20261128220100LadderStops extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ladder_stops" (
      "level_number" int not null,
      "ladder" varchar(40) not null,
      "voter_hash" varchar(64) not null,
      "revealed" smallint not null,
      "state" varchar(8) not null,
      "updated_at" timestamptz not null,
      primary key ("level_number", "ladder", "voter_hash")
    );`);
    this.addSql(`alter table "ladder_stops" add constraint "ladder_stops_state_check" check (state in ('solved', 'stuck'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ladder_stops" cascade;`);
  }
}
