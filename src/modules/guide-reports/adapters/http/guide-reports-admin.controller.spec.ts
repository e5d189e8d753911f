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

describe('GuideReportsAdminController (in process)', () => {
  let accounts: TestAccounts;
  beforeEach(() => {
    accounts = new TestAccounts();
  });
  const api = useControllers(() => ({
    controllers: [GuideReportsAdminController],
    providers: [
      GuideReportsService,
      LevelsService,
      { provide: GuideReportRepository, useValue: new InMemoryGuideReportRepository() },
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: JobQueue, useValue: new RecordingJobQueue() },
      { provide: MailOutbox, useValue: new RecordingMailOutbox() },
      ...accounts.providers(),
    ],
  }));

  /** A player's report of level 27, as the public route stores it. */
  const report = async (kind: 'other' | 'wrong_step', message?: string) => (await api.get(GuideReportsService)).report(27, { kind, message });

  it('lists the open reports for an admin and marks one handled once (the first time stays)', async () => {
    const { id } = await report('other', 'first');
    await report('wrong_step');
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
