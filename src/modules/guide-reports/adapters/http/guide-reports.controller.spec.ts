import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { GuideReportsService } from '../../application/guide-reports.service';
import { GuideReportRepository } from '../../domain/guide-report-repository.port';
import { InMemoryGuideReportRepository } from '../../testing/in-memory-guide-report-repository';
import { GuideReportsController } from './guide-reports.controller';

describe('GuideReportsController (in process)', () => {
  let reports: InMemoryGuideReportRepository;
  let queue: RecordingJobQueue;
  beforeEach(() => {
    reports = new InMemoryGuideReportRepository();
    queue = new RecordingJobQueue();
  });
  const api = useControllers(() => ({
    controllers: [GuideReportsController],
    providers: [
      GuideReportsService,
      LevelsService,
      { provide: GuideReportRepository, useValue: reports },
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: JobQueue, useValue: queue },
      { provide: MailOutbox, useValue: new RecordingMailOutbox() },
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
});
