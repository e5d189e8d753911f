import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { ADMIN_EMAIL, errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { GuideReportsService } from '../../application/guide-reports.service';
import { GuideReportRepository } from '../../domain/guide-report-repository.port';
import { InMemoryGuideReportRepository } from '../../testing/in-memory-guide-report-repository';
import { GuideReportsAdminController } from './guide-reports-admin.controller';
import { GuideReportsController } from './guide-reports.controller';

describe('GuideReportsController and GuideReportsAdminController (in process)', () => {
  let accounts: TestAccounts;
  let reports: InMemoryGuideReportRepository;
  let queue: RecordingJobQueue;
  beforeEach(() => {
    accounts = new TestAccounts();
    reports = new InMemoryGuideReportRepository();
    queue = new RecordingJobQueue();
  });
  const api = useControllers(() => ({
    controllers: [GuideReportsController, GuideReportsAdminController],
    providers: [
      GuideReportsService,
      LevelsService,
      { provide: GuideReportRepository, useValue: reports },
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: JobQueue, useValue: queue },
      { provide: MailOutbox, useValue: new RecordingMailOutbox() },
      ...accounts.providers(),
    ],
  }));

  const report = (level: string, payload: unknown, headers: Record<string, string> = {}) => api.inject({ method: 'POST', url: `/api/v1/levels/${level}/reports`, payload: payload as object, headers });

  it("takes an anonymous report of a guide (201 with its id) and queues the admins' notice", async () => {
    const response = await report('27', { kind: 'wrong_step', message: '  Step 3 is the right door.  ' });
    expect(response.statusCode).toBe(201);
    const { id } = response.json();
    expect(reports.rows.get(id)).toMatchObject({ levelNumber: 27, kind: 'wrong_step', message: 'Step 3 is the right door.' });
    expect(queue.dataOf('guide-report.notify')).toEqual([{ reportId: id }]);
  });

  // Each request counts against the route's 5 per 10 minutes: a test sends at most 5.
  it('refuses a level number out of range or malformed: 400', async () => {
    for (const level of ['0', '636', '27abc', '1e3', '-1']) {
      const refused = await report(level, { kind: 'other' });
      expect([level, refused.statusCode, errorOf(refused).code]).toEqual([level, 400, 'REQUEST.INVALID']);
    }
  });

  it('refuses a level without a guide (404) and a body out of shape (400), storing nothing', async () => {
    const noGuide = await report('28', { kind: 'other' });
    expect([noGuide.statusCode, errorOf(noGuide).code]).toEqual([404, 'GUIDE_REPORTS.NO_GUIDE']);
    const badKind = await report('27', { kind: 'rude' });
    expect([badKind.statusCode, errorOf(badKind)]).toEqual([400, { code: 'REQUEST.INVALID', errors: ['kind: kind is one of wrong_step, video_mismatch, other'] }]);
    for (const payload of [{ kind: 'other', message: 'x'.repeat(1001) }, { kind: 'other', email: 'a@b.c' }]) {
      const refused = await report('27', payload);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
    expect(reports.rows.size).toBe(0);
  });

  it('takes JSON only (a form post is 415), and 5 reports per 10 minutes per client (then 429)', async () => {
    const form = await report('27', 'kind=other', { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.statusCode, errorOf(form).code]).toEqual([415, 'REQUEST.JSON_ONLY']);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await report('27', { kind: 'other' })).statusCode);
    const limited = await report('27', { kind: 'other' });
    expect([...statuses, limited.statusCode, errorOf(limited).code]).toEqual([201, 201, 201, 201, 201, 429, 'REQUEST.RATE_LIMITED']);
  });

  it('lists the open reports for an admin and marks one handled once (the first time stays)', async () => {
    const { id } = (await report('27', { kind: 'other', message: 'first' })).json();
    await report('27', { kind: 'wrong_step' });
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const open = await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports?level=27', headers: admin.headers });
    expect(open.json()).toMatchObject({ total: 2, page: 1, pages: 1 });
    const handled = await api.inject({ method: 'PUT', url: `/api/v1/admin/guide_reports/${id}/handled`, headers: admin.headers });
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toMatchObject({ id, level_number: 27, kind: 'other', message: 'first', handled_at: expect.any(String) });
    const again = await api.inject({ method: 'PUT', url: `/api/v1/admin/guide_reports/${id}/handled`, headers: admin.headers });
    expect(again.json().handled_at).toBe(handled.json().handled_at);
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports', headers: admin.headers })).json().total).toBe(1);
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports?state=handled', headers: admin.headers })).json().items.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it('answers the admin routes to admins only, and refuses an id or a query out of shape', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const player = await accounts.signIn();
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports' })).statusCode).toBe(401);
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports', headers: player.headers })).code).toBe('AUTH.ADMIN_REQUIRED');
    const missing = await api.inject({ method: 'PUT', url: '/api/v1/admin/guide_reports/0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e/handled', headers: admin.headers });
    expect([missing.statusCode, errorOf(missing).code]).toEqual([404, 'GUIDE_REPORTS.NOT_FOUND']);
    const notAnId = await api.inject({ method: 'PUT', url: '/api/v1/admin/guide_reports/42/handled', headers: admin.headers });
    expect([notAnId.statusCode, errorOf(notAnId)]).toEqual([400, { code: 'REQUEST.INVALID', errors: ['Not a report id'] }]);
    const badState = await api.inject({ method: 'GET', url: '/api/v1/admin/guide_reports?state=closed', headers: admin.headers });
    expect([badState.statusCode, errorOf(badState).code]).toEqual([400, 'REQUEST.INVALID']);
  });
});
