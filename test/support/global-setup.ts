import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { adminQuery, databaseUrl } from './services';

const ROOT = resolve(__dirname, '../..');

/**
 * Once per jest run of the services' tiers: build when the sources changed (the tests start the
 * built app), then create and migrate this run's template database, which every test database
 * is cloned from. The run id makes every name unique to this run, so two checkouts can test at
 * once against the same PostgreSQL and Redis.
 */
export default async function globalSetup(): Promise<void> {
  // Both service projects may run in one jest process: one template serves them.
  if (process.env.TEST_TEMPLATE_DATABASE) return;
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
  const template = `tpl_${run}`;
  await adminQuery(`create database "${template}"`);
  try {
    execFileSync(process.execPath, ['dist/server/src/cli/db.js', 'migrate'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl(template) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    await adminQuery(`drop database if exists "${template}" with (force)`);
    throw new Error(`Migrating the template database failed:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`, { cause: error });
  }
  // The workers start after this and inherit both.
  process.env.TEST_RUN_ID = run;
  process.env.TEST_TEMPLATE_DATABASE = template;
}
