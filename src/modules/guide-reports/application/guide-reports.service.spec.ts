import { loadConfig, type AppConfig } from 'src/config/app-config';
import { LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { validateJob } from 'src/platform/queue/jobs';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { InMemoryGuideReportRepository } from '../testing/in-memory-guide-report-repository';
import { GuideReportNotFoundError, NoGuideToReportError } from '../domain/guide-reports.errors';
import { GuideReportsService } from './guide-reports.service';

const NOW = new Date('2026-11-23T12:00:00Z');
const WORDS = 'Step 3 says <b>left</b>; it is the right door.';

function setup(env: Record<string, string> = {}) {
  const reports = new InMemoryGuideReportRepository();
  const queue = new RecordingJobQueue();
  const outbox = new RecordingMailOutbox();
  const config: AppConfig = loadConfig({}, { PUBLIC_URL: 'https://guides.example', ...env });
  // Level 27's guide has a video; level 28's has none, level 29's only a sample's placeholder (the guide shows none).
  const levels = new InMemoryLevelRepository([
    aLevel(27, { title: 'The Locked Observatory', video: { youtubeId: 'abc', title: 'Level 27', durationSeconds: 60, sample: false } }),
    aLevel(28, { title: 'The Quiet Library' }),
    aLevel(29, { title: 'The Sample Room', video: { youtubeId: 'SAMPLE00029', title: 'Level 29', durationSeconds: 60, sample: true } }),
  ]);
  const service = new GuideReportsService(reports, new LevelsService(levels, new InMemoryGuideVoteRepository()), queue, outbox, config);
  return { service, reports, queued: queue.queued, mails: outbox.sent, queue };
}

describe('GuideReportsService', () => {
  it('stores a report of a guide and queues its notification with the id only', async () => {
    const { service, reports, queued } = setup();
    const report = await service.report(27, { kind: 'wrong_step', message: WORDS }, NOW);
    expect(reports.rows.get(report.id)).toMatchObject({ levelNumber: 27, kind: 'wrong_step', message: WORDS, createdAt: NOW });
    expect(queued).toEqual([{ name: 'guide-report.notify', data: { reportId: report.id }, options: { jobId: `guide-report-${report.id}` } }]);
    // The registry accepts it, and would refuse the text or an address riding along.
    expect(validateJob('guide-report.notify', queued[0]!.data)).toEqual({ reportId: report.id });
    expect(() => validateJob('guide-report.notify', { reportId: report.id, message: WORDS })).toThrow();
  });

  it('tells the report page whether the guide has a video, and that a level without a guide has no page', async () => {
    const { service } = setup();
    expect(await service.pageData(27)).toEqual({ number: 27, title: 'The Locked Observatory', has_video: true });
    expect(await service.pageData(28)).toEqual({ number: 28, title: 'The Quiet Library', has_video: false });
    expect(await service.pageData(29)).toEqual({ number: 29, title: 'The Sample Room', has_video: false });
    expect(await service.pageData(15)).toBeNull();
  });

  it('refuses a level without a guide, storing nothing', async () => {
    const { service, reports, queued } = setup();
    await expect(service.report(15, { kind: 'other' }, NOW)).rejects.toBeInstanceOf(NoGuideToReportError);
    expect(reports.rows.size).toBe(0);
    expect(queued).toEqual([]);
  });

  it('keeps the report when the queue is down', async () => {
    const { service, reports, queue } = setup();
    queue.down = true;
    const report = await service.report(27, { kind: 'other' }, NOW);
    expect(reports.rows.has(report.id)).toBe(true);
  });

  it('mails each admin once, with the words escaped in the HTML part and a link to the guide', async () => {
    const { service, reports, mails } = setup({ ADMIN_EMAILS: 'ann@example.com, bob@example.com' });
    const report = await service.report(27, { kind: 'video_mismatch', message: WORDS }, NOW);
    expect(await service.notifyAdmins(report.id, NOW)).toBe(2);
    expect(mails.map((m) => m.to)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(mails[0]!.subject).toBe('Guide problem reported: level 27 (the video does not match)');
    expect(mails[0]!.text).toContain(`Their words:\n${WORDS}`);
    expect(mails[0]!.text).toContain('Level 27: The Locked Observatory');
    expect(mails[0]!.text).toContain('https://guides.example/levels/27');
    expect(mails[0]!.html).toContain('Step 3 says &lt;b&gt;left&lt;/b&gt;');
    expect(mails[0]!.html).not.toContain('<b>left</b>');
    expect(reports.rows.get(report.id)?.notifiedAt).toEqual(NOW);
    // A repeated job mails nobody again (the report is notified, and a mail went out just now).
    expect(await service.notifyAdmins(report.id, NOW)).toBe(0);
    expect(mails).toHaveLength(2);
  });

  it('mails each admin once per quiet spell: the first report at once, the next 59 in one digest when the spell has passed', async () => {
    const { service, reports, mails } = setup({ ADMIN_EMAILS: 'ann@example.com, bob@example.com' });
    for (let i = 0; i < 60; i++) {
      const report = await service.report(27, { kind: 'other', message: `report ${i} <i>` }, new Date(NOW.getTime() + i * 1000));
      // Each report's job, as the worker runs it.
      await service.notifyAdmins(report.id, new Date(NOW.getTime() + i * 1000 + 500));
    }
    // Before: 120 mails (one per admin per report).
    expect(mails.map((m) => m.to)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(mails[0]!.subject).toBe('Guide problem reported: level 27 (something else)');
    // Within the spell the minutely run sends nothing; past it, one digest per admin with the 59 others.
    expect(await service.mailDue(new Date(NOW.getTime() + 10 * 60_000))).toBe(0);
    expect(await service.mailDue(new Date(NOW.getTime() + 16 * 60_000))).toBe(2);
    expect(mails).toHaveLength(4);
    expect(mails[2]!.subject).toBe('Guide problems reported: 59 reports, 1 level');
    for (let i = 1; i < 60; i++) expect(mails[2]!.text).toContain(`report ${i} <i>`);
    expect(mails[2]!.html).toContain('report 59 &lt;i&gt;');
    expect([...reports.rows.values()].every((r) => r.notifiedAt)).toBe(true);
    // Nothing left: nothing more to send.
    expect(await service.mailDue(new Date(NOW.getTime() + 60 * 60_000))).toBe(0);
  });

  it('does nothing without ADMIN_EMAILS, or for a report that is gone', async () => {
    const { service, reports, mails } = setup();
    const report = await service.report(27, { kind: 'other' }, NOW);
    expect(await service.notifyAdmins(report.id, NOW)).toBe(0);
    expect(reports.rows.get(report.id)?.notifiedAt).toBeUndefined();
    const withAdmins = setup({ ADMIN_EMAILS: 'ann@example.com' });
    expect(await withAdmins.service.notifyAdmins('0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e', NOW)).toBe(0);
    expect(mails).toEqual([]);
    expect(withAdmins.mails).toEqual([]);
  });

  it('deletes the reports older than 180 days', async () => {
    const { service, reports } = setup();
    const old = await service.report(27, { kind: 'other' }, new Date('2026-05-27T11:59:59Z'));
    const kept = await service.report(27, { kind: 'other' }, new Date('2026-05-27T12:00:00Z'));
    expect(await service.deleteExpired(NOW)).toBe(1);
    expect([...reports.rows.keys()]).toEqual([kept.id]);
    expect(reports.rows.has(old.id)).toBe(false);
  });

  it('marks a report handled once: a repeat keeps the first time; an unknown or malformed id is not found', async () => {
    const { service } = setup();
    const report = await service.report(27, { kind: 'wrong_step', message: WORDS }, NOW);
    const first = await service.markHandled(report.id, new Date('2026-11-24T08:00:00Z'));
    expect(first).toEqual({
      id: report.id,
      level_number: 27,
      kind: 'wrong_step',
      message: WORDS,
      created_at: NOW.toISOString(),
      handled_at: '2026-11-24T08:00:00.000Z',
    });
    expect(await service.markHandled(report.id, new Date('2026-11-25T08:00:00Z'))).toEqual(first);
    await expect(service.markHandled('0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e')).rejects.toBeInstanceOf(GuideReportNotFoundError);
    await expect(service.markHandled("x' or 1=1 --\u0000")).rejects.toBeInstanceOf(GuideReportNotFoundError);
  });

  it('lists open reports newest first, and the newest open ones of each level', async () => {
    const { service } = setup();
    const older = await service.report(27, { kind: 'other' }, new Date('2026-11-20T00:00:00Z'));
    const newer = await service.report(27, { kind: 'other' }, new Date('2026-11-21T00:00:00Z'));
    const handled = await service.report(27, { kind: 'other' }, new Date('2026-11-22T00:00:00Z'));
    await service.markHandled(handled.id, NOW);
    expect((await service.list({ state: 'open' }, 1)).items.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(await service.list({ level: 27, state: 'handled' }, 1)).toMatchObject({ total: 1, pages: 1, items: [{ id: handled.id }] });
    expect([...(await service.newestOpen([27, 28], 1)).entries()].map(([level, reports]) => [level, reports.map((r) => r.id)])).toEqual([[27, [newer.id]]]);
  });
});
