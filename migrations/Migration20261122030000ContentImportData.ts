import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030000ContentImportData extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "content_imports" add column "data" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "content_imports" drop column "data";`);
  }
}
