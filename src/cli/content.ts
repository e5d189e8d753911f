import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { applyNodeEnv, ConfigError, loadConfig } from 'src/config/app-config';
import { checkLevelFiles, LEVEL_SOURCES, LevelsService, type ImportSummary } from 'src/modules/levels';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { formatFault } from 'src/platform/content/content-file';
import { ContentImporter } from 'src/platform/content/content-importer';
import { FileContentReader } from 'src/platform/content/file-content-reader.adapter';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { AppError } from 'src/platform/errors/app-error';
import { PlatformModule } from 'src/platform/platform.module';

/**
 * Content commands, against DATABASE_URL (or the embedded database):
 *   import   imports content/levels/*.md (npm run content:import)
 *   wanted   lists the most requested levels without a guide (npm run content:wanted)
 *   check    checks every guide file, as the import does, without a database (npm run content:check)
 */
async function main(command: string | undefined): Promise<void> {
  if (command !== 'import' && command !== 'wanted' && command !== 'check') {
    console.error('Usage: node dist/server/src/cli/content.js import | wanted | check');
    process.exitCode = 2;
    return;
  }
  if (command === 'check') return check();
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

/** Every fault of every guide file as `file:line: field: problem`, exit code 1 when there is any. */
async function check(): Promise<void> {
  const config = loadConfig();
  const files = await new FileContentReader(config.content.dir).read(LEVEL_SOURCES);
  const { guides, pictures, faults } = checkLevelFiles(files, new MarkdownItRenderer());
  for (const { file, fault } of faults) console.log(formatFault(`content/${file}`, fault));
  if (faults.length) {
    console.log(`${faults.length} problem(s) in ${new Set(faults.map((f) => f.file)).size} file(s)`);
    process.exitCode = 1;
  } else {
    console.log(`${guides.length} guide(s) and ${pictures.length} picture(s) checked: no problems`);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  // A malformed content file names the file, the field and the problem.
  console.error(error instanceof ConfigError || error instanceof AppError ? error.message : error);
  process.exit(1);
});
