import { connect, POSTGRES_URL } from './services';

/** Drops this run's templates and any test database a crashed test file left behind. */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.TEST_RUN_ID;
  if (!run || !process.env.TEST_TEMPLATE_DATABASE) return;
  delete process.env.TEST_TEMPLATE_DATABASE;
  delete process.env.TEST_CONTENT_TEMPLATE_DATABASE;
  const admin = await connect(POSTGRES_URL);
  try {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname like $2`, [`tpl\\_${run}%`, `t\\_${run}\\_%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}
