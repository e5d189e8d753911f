import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { adminQuery, databaseUrl } from './services';

const ROOT = resolve(__dirname, '../..');

/**
 * Once per jest run of the services' tiers: build when the sources changed (the tests start the
 * built app), then create and migrate this run's template database, which every test database
 * is cloned from, and a second template with the shipped content imported (guides, pictures,
 * pages), which the sites on that content are cloned from: their start then finds the content
 * unchanged instead of importing it again (about 3 CPU-s a start, in every test file). The run id
 * makes every name unique to this run, so two checkouts can test at once against the same
 * PostgreSQL and Redis.
 */
export default async function globalSetup(): Promise<void> {
  // Both service projects may run in one jest process: one template serves them.
  if (process.env.TEST_TEMPLATE_DATABASE) return;
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
  const template = `tpl_${run}`;
  const withContent = `tpl_${run}_content`;
  const cli = (database: string, ...args: string[]) =>
    execFileSync(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl(database) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  await adminQuery(`create database "${template}"`);
  try {
    cli(template, 'dist/server/src/cli/db.js', 'migrate');
    await adminQuery(`create database "${withContent}" template "${template}"`);
    cli(withContent, 'dist/server/src/cli/content.js', 'import');
  } catch (error) {
    for (const name of [withContent, template]) await adminQuery(`drop database if exists "${name}" with (force)`);
    throw new Error(`Preparing the template databases failed:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`, { cause: error });
  }
  // The workers start after this and inherit them.
  process.env.TEST_RUN_ID = run;
  process.env.TEST_TEMPLATE_DATABASE = template;
  process.env.TEST_CONTENT_TEMPLATE_DATABASE = withContent;
}
