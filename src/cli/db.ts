import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/core';
import { FEATURE_MODULES } from 'src/app.module';
import { applyNodeEnv, ConfigError, loadConfig } from 'src/config/app-config';
import { PlatformModule } from 'src/platform/platform.module';

/**
 * Database commands, against DATABASE_URL (or the embedded database when it is not set):
 *   migrate            applies pending migrations (npm run migrate)
 *   migration:create   writes a migration for what differs between the entities and the database
 */
async function main(command: string | undefined): Promise<void> {
  if (command !== 'migrate' && command !== 'migration:create') {
    console.error('Usage: node dist/server/src/cli/db.js migrate | migration:create');
    process.exitCode = 2;
    return;
  }
  // Only the schema is this command's business: no content import (its tables may not exist yet).
  const config = loadConfig(undefined, { CONTENT_IMPORT_ON_START: 'false', MIGRATE_ON_START: 'false' });
  applyNodeEnv(config);

  // The feature modules bring their entities (the migration diff compares them with the database).
  @Module({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ...FEATURE_MODULES] })
  class DatabaseCliModule {}

  const app = await NestFactory.createApplicationContext(DatabaseCliModule, { logger: ['error', 'warn'] });
  try {
    const migrator = app.get(MikroORM).migrator;
    if (command === 'migrate') {
      const applied = await migrator.up();
      console.log(
        applied.length
          ? `Applied ${applied.map((m) => m.name).join(', ')} to the ${config.database.kind} database`
          : `The ${config.database.kind} database is up to date`,
      );
    } else {
      const created = await migrator.create();
      console.log(
        created.diff.up.length
          ? `Wrote migrations/${created.fileName}: add it to the list in migrations/index.ts`
          : 'The entities match the database: no migration needed',
      );
    }
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
