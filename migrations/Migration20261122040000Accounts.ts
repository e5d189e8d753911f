import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040000Accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "users" (
      "id" uuid not null default gen_random_uuid() primary key,
      "email" varchar(256) not null,
      "password_hash" varchar(256) null,
      "confirmed_at" timestamptz null,
      "google_subject" varchar(255) null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" add constraint "users_google_subject_unique" unique ("google_subject");`);

    this.addSql(`create table "sessions" (
      "id" uuid not null default gen_random_uuid() primary key,
      "user_id" uuid not null,
      "token_hash" varchar(64) not null,
      "created_at" timestamptz not null,
      "last_used_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "revoked_at" timestamptz null
    );`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "one_time_tokens" (
      "id" uuid not null default gen_random_uuid() primary key,
      "user_id" uuid not null,
      "purpose" varchar(32) not null,
      "token_hash" varchar(64) not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null
    );`);
    this.addSql(`create index "one_time_tokens_user_id_index" on "one_time_tokens" ("user_id");`);
    this.addSql(`alter table "one_time_tokens" add constraint "one_time_tokens_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "one_time_tokens";`);
    this.addSql(`drop table if exists "sessions";`);
    this.addSql(`drop table if exists "users";`);
  }
}
