import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { applyNodeEnv, ConfigError, loadConfig } from 'src/config/app-config';
import { LevelsService, type ImportSummary } from 'src/modules/levels';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { ContentImporter } from 'src/platform/content/content-importer';
import { AppError } from 'src/platform/errors/app-error';
import { PlatformModule } from 'src/platform/platform.module';

/**
 * Content commands, against DATABASE_URL (or the embedded database):
 *   import   imports content/levels/*.md (npm run content:import)
 *   wanted   lists the most requested levels without a guide (npm run content:wanted)
 */
async function main(command: string | undefined): Promise<void> {
  if (command !== 'import' && command !== 'wanted') {
    console.error('Usage: node dist/server/src/cli/content.js import | wanted');
    process.exitCode = 2;
    return;
  }
  // The command does the import itself; the start-up import would only repeat it.
  const config = loadConfig(undefined, { CONTENT_IMPORT_ON_START: 'false' });
  applyNodeEnv(config);

  @Module({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), LevelsModule] })
  class ContentCliModule {}

  const app = await NestFactory.createApplicationContext(ContentCliModule, { logger: ['error', 'warn'] });
  try {
    await RequestContext.create(app.get(MikroORM).em, async () => {
      if (command === 'import') {
        const s = await app.get(ContentImporter).import<ImportSummary>('levels');
        console.log(`Level guides: ${s.created} new, ${s.updated} updated, ${s.unpublished} unpublished, ${s.unchanged} unchanged`);
      } else {
        // The same list as /admin/guides shows (its second section).
        const rows = await app.get(LevelsService).mostRequested();
        if (!rows.length) console.log('No guide requests yet');
        for (const row of rows) console.log(`level ${row.level}\t${row.requests} request(s)\tlast ${row.lastRequestedAt.toISOString()}`);
      }
    });
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  // A malformed content file names the file, the field and the problem.
  console.error(error instanceof ConfigError || error instanceof AppError ? error.message : error);
  process.exit(1);
});
