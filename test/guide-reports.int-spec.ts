import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { loadConfig } from 'src/config/app-config';
import { GuideReportsService } from 'src/modules/guide-reports/application/guide-reports.service';
import { GuideReportsModule } from 'src/modules/guide-reports/guide-reports.module';
import { GuideReportRepository } from 'src/modules/guide-reports/domain/guide-report-repository.port';
import { PlatformModule } from 'src/platform/platform.module';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { createTestDatabase, type TestDatabase } from './support/services';
import { until } from './support/until';

const CONTENT_DIR = join(__dirname, 'fixtures/content');
const WORDS = 'Step 2 says <b>four</b>; the dial only goes to three.';

/**
 * The module on real PostgreSQL, as `npm start` runs it without Redis: the report is stored, the
 * 'guide-report.notify' job runs in-process and mails each admin through the outbox (.eml files
 * under DATA_DIR/mail), and the housekeeping deletes reports older than 180 days.
 */
describe('guide reports on PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let app: TestingModule;
  let sql: Client;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);
  const mails = async () => {
    const files = await readdir(join(dataDir, 'mail')).catch(() => [] as string[]);
    return Promise.all(files.filter((f) => f.endsWith('.eml')).map((f) => readFile(join(dataDir, 'mail', f), 'utf8')));
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'guide-reports-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      MIGRATE_ON_START: 'true',
      CONTENT_DIR,
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://guides.example',
      ADMIN_EMAILS: 'ann@example.com,bob@example.com',
      // Every report mailed as it comes (the digest's bound is tested on its own below).
      GUIDE_REPORT_DIGEST_MINUTES: '0',
    });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), GuideReportsModule] }).compile();
    await app.init();
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores a report, then the job mails each admin once and marks it notified', async () => {
    const report = await inContext(() => app.get(GuideReportsService).report(10, { kind: 'wrong_step', message: WORDS }));
    const { rows } = await sql.query('select level_number, kind, message from guide_reports where id = $1', [report.id]);
    expect(rows).toEqual([{ level_number: 10, kind: 'wrong_step', message: WORDS }]);
    const sent = await until('a mail to each admin', async () => {
      const found = (await mails()).filter((m) => m.includes(report.id));
      return found.length === 2 && found;
    });
    expect(sent.some((m) => /^To: ann@example\.com$/m.test(m))).toBe(true);
    expect(sent.some((m) => /^To: bob@example\.com$/m.test(m))).toBe(true);
    expect(sent[0]).toContain('Subject: Guide problem reported: level 10 (a step is wrong)');
    expect(sent[0]).toContain('https://guides.example/levels/10');
    await until('the report marked notified', async () => {
      const { rows: after } = await sql.query('select notified_at from guide_reports where id = $1', [report.id]);
      return after[0]?.notified_at !== null;
    });
  });

  it('runs the job outside any request, as a worker does (its own MikroORM context)', async () => {
    const report = await inContext(() => app.get(GuideReportsService).report(11, { kind: 'video_mismatch' }));
    await sql.query('update guide_reports set notified_at = null where id = $1', [report.id]);
    await app.get(JobProcessors).run('guide-report.notify', { reportId: report.id }, { id: 'w-1', name: 'guide-report.notify', attempt: 1, attempts: 5 });
    const { rows } = await sql.query('select notified_at from guide_reports where id = $1', [report.id]);
    expect(rows[0].notified_at).not.toBeNull();
  });

  it("claims the digest's reports once when twenty claims race (two workers, many jobs at once)", async () => {
    for (let i = 0; i < 5; i++) await sql.query(`insert into guide_reports (id, level_number, kind, message, created_at) values (gen_random_uuid(), 10, 'other', null, now())`);
    const later = new Date(Date.now() + 24 * 60 * 60_000);
    const repository = app.get(GuideReportRepository);
    const claims = await Promise.all(Array.from({ length: 20 }, () => repository.claimDue(later, 15 * 60_000)));
    expect(claims.map((c) => c.length).sort((a, b) => b - a)).toEqual([5, ...Array(19).fill(0)]);
    // Within the quiet spell after it nothing is claimed, even a new report.
    await sql.query(`insert into guide_reports (id, level_number, kind, message, created_at) values (gen_random_uuid(), 10, 'other', null, now())`);
    expect(await repository.claimDue(new Date(later.getTime() + 60_000), 15 * 60_000)).toEqual([]);
    expect(await repository.claimDue(new Date(later.getTime() + 16 * 60_000), 15 * 60_000)).toHaveLength(1);
  });

  it('refuses a level without a guide and stores nothing', async () => {
    const before = await sql.query('select count(*)::int as n from guide_reports');
    await expect(inContext(() => app.get(GuideReportsService).report(15, { kind: 'other' }))).rejects.toMatchObject({ code: 'GUIDE_REPORTS.NO_GUIDE' });
    expect((await sql.query('select count(*)::int as n from guide_reports')).rows[0].n).toBe(before.rows[0].n);
  });

  it('the housekeeping deletes reports older than 180 days, and only those', async () => {
    await sql.query(
      `insert into guide_reports (id, level_number, kind, message, created_at) values
         ('00000000-0000-4000-8000-000000000181', 10, 'other', null, now() - interval '181 days'),
         ('00000000-0000-4000-8000-000000000179', 10, 'other', null, now() - interval '179 days')`,
    );
    await app.get(RecurringWork).run('guide-reports.delete-expired');
    const { rows } = await sql.query(`select id from guide_reports where id::text like '00000000-%' order by id`);
    expect(rows.map((r) => r.id)).toEqual(['00000000-0000-4000-8000-000000000179']);
  });
});
