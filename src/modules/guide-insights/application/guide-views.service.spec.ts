import { InMemoryGuideViewLog } from '../testing/in-memory-guide-view-log';
import { GuideViews } from './guide-views.service';

const NOON = Date.parse('2026-11-26T12:00:00Z');

describe('GuideViews: counted in memory, written by flush()', () => {
  it('writes nothing per view, and everything counted at the next flush, once', async () => {
    const log = new InMemoryGuideViewLog();
    const views = new GuideViews(log);
    for (let i = 0; i < 1000; i++) views.count(27, NOON);
    views.count(3, NOON);
    expect(log.writes).toBe(0);
    expect(await views.flush()).toBe(1001);
    expect(log.writes).toBe(1);
    expect(Object.fromEntries(log.stored)).toEqual({ '27 2026-11-26': 1000, '3 2026-11-26': 1 });
    // Nothing new: no write at all (a process serving no pages never touches the database).
    expect(await views.flush()).toBe(0);
    expect(log.writes).toBe(1);
  });

  it('keeps the counts of a failed write for the next flush, with those counted meanwhile', async () => {
    const log = new InMemoryGuideViewLog();
    const views = new GuideViews(log);
    views.count(27, NOON);
    views.count(27, NOON);
    log.failNext = true;
    await expect(views.flush()).rejects.toThrow('database away');
    views.count(27, NOON);
    expect(await views.flush()).toBe(3);
    expect(Object.fromEntries(log.stored)).toEqual({ '27 2026-11-26': 3 });
  });

  it('counts views that arrive during a write towards the next one, never twice nor lost', async () => {
    const log = new InMemoryGuideViewLog();
    const views = new GuideViews(log);
    let release = () => {};
    log.hold = new Promise((resolve) => (release = resolve));
    views.count(27, NOON);
    const writing = views.flush();
    views.count(27, NOON);
    views.count(27, NOON);
    release();
    expect(await writing).toBe(1);
    log.hold = undefined;
    expect(await views.flush()).toBe(2);
    expect(Object.fromEntries(log.stored)).toEqual({ '27 2026-11-26': 3 });
  });

  it('adds up across processes: each flushes its own counts into the same rows', async () => {
    const log = new InMemoryGuideViewLog();
    const [a, b] = [new GuideViews(log), new GuideViews(log)];
    a.count(27, NOON);
    b.count(27, NOON);
    b.count(27, NOON);
    await Promise.all([a.flush(), b.flush()]);
    expect(Object.fromEntries(log.stored)).toEqual({ '27 2026-11-26': 3 });
  });
});
