import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { GuideReportRepository, GuideReportsService } from 'src/modules/guide-reports';
import { InMemoryGuideReportRepository } from 'src/modules/guide-reports/testing/in-memory-guide-report-repository';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { ADMIN_EMAIL, errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { GuideInsightsService } from '../../application/guide-insights.service';
import type { GuideInsightRecord } from '../../domain/guide-insights-reader.port';
import { GuideInsightsReader } from '../../domain/guide-insights-reader.port';
import { InMemoryGuideInsightsReader } from '../../testing/in-memory-guide-insights-reader';
import { GuideInsightsAdminController } from './guide-insights-admin.controller';

const record = (level: number, measures: Partial<GuideInsightRecord> = {}): GuideInsightRecord => ({
  level,
  title: `Level ${level} room`,
  difficulty: 'medium',
  openReports: 0,
  helpfulRatio: null,
  helpfulVotes: 0,
  votes: 0,
  viewsRecent: 0,
  viewsTotal: 0,
  stuck: 0,
  solved: 0,
  notHelpfulReasons: { unclear_step: 0, different_version: 0, wrong: 0, none: 0 },
  ...measures,
});

describe('GuideInsightsAdminController (in process)', () => {
  let accounts: TestAccounts;
  let reader: InMemoryGuideInsightsReader;
  let votes: InMemoryGuideVoteRepository;
  let reports: InMemoryGuideReportRepository;
  beforeEach(() => {
    accounts = new TestAccounts();
    reader = new InMemoryGuideInsightsReader([record(1, { viewsRecent: 40 }), record(27, { openReports: 1, viewsRecent: 5 }), record(33, { stuck: 9, viewsRecent: 90 })]);
    votes = new InMemoryGuideVoteRepository();
    reports = new InMemoryGuideReportRepository();
  });
  const api = useControllers(() => ({
    controllers: [GuideInsightsAdminController],
    providers: [
      GuideInsightsService,
      GuideReportsService,
      LevelsService,
      { provide: GuideInsightsReader, useValue: reader },
      { provide: GuideReportRepository, useValue: reports },
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(1), aLevel(27), aLevel(33)]) },
      { provide: GuideVoteRepository, useValue: votes },
      { provide: JobQueue, useValue: new RecordingJobQueue() },
      { provide: MailOutbox, useValue: new RecordingMailOutbox() },
      ...accounts.providers(),
    ],
  }));

  it("answers an admin every guide worst first, with a reported guide's open reports, and the most requested levels", async () => {
    const { headers } = await accounts.signIn(ADMIN_EMAIL);
    await (await api.get(GuideReportsService)).report(27, { kind: 'wrong_step', message: 'Step 2 is wrong' });
    await votes.addRequest(40, 'browser-a', new Date('2026-11-20T10:00:00Z'));
    const response = await api.inject({ method: 'GET', url: '/api/v1/admin/guides', headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.query).toEqual({ sort: 'worst', dir: 'desc', page: 1 });
    expect(body.guides.items.map((g: { level: number }) => g.level)).toEqual([27, 33, 1]);
    expect(body.guides.items[0].reports).toEqual([expect.objectContaining({ kind: 'wrong_step', message: 'Step 2 is wrong' })]);
    expect(body.wanted).toEqual([{ level: 40, requests: 1, last_requested_at: '2026-11-20T10:00:00.000Z' }]);
  });

  it("sorts by the measure asked, in the sort's own direction unless told", async () => {
    const { headers } = await accounts.signIn(ADMIN_EMAIL);
    const levels = async (query: string) => (await api.inject({ method: 'GET', url: `/api/v1/admin/guides?${query}`, headers })).json().guides.items.map((g: { level: number }) => g.level);
    expect(await levels('sort=views')).toEqual([33, 1, 27]);
    expect(await levels('sort=views&dir=asc')).toEqual([27, 1, 33]);
    expect(await levels('sort=level')).toEqual([1, 27, 33]);
  });

  it('refuses a sort, direction or page it does not know (400), and anyone but an admin', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    for (const query of ['sort=best', 'dir=up', 'page=0', 'limit=5']) {
      const refused = await api.inject({ method: 'GET', url: `/api/v1/admin/guides?${query}`, headers: admin.headers });
      expect([query, refused.statusCode, errorOf(refused).code]).toEqual([query, 400, 'REQUEST.INVALID']);
    }
    const player = await accounts.signIn();
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/admin/guides', headers: player.headers })).code).toBe('AUTH.ADMIN_REQUIRED');
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/guides' })).statusCode).toBe(401);
  });
});
