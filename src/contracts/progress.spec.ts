import { continueAt, parseStoredProgress, storedProgress, type ProgressLevels } from './progress';
import { fromItems, mergeProgress, toExport, toItems } from './progress-sync';

/** What the server does with a browser's entries: ages on the browser's clock, dated on its own. */
const shiftClock = (levels: ProgressLevels, clientNow: number, serverNow: number) => fromItems(toItems(levels, clientNow), serverNow);

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('mergeProgress: per level, the later change wins', () => {
  it('takes each level from the side that changed it last when both sides changed', () => {
    const stored: ProgressLevels = { 1: { state: 'solved', at: 100 }, 2: { state: 'stuck', at: 500 }, 3: { state: 'solved', at: 300 } };
    const incoming: ProgressLevels = { 1: { state: 'stuck', at: 200 }, 2: { state: 'solved', at: 400 }, 4: { state: 'stuck', at: 50 } };
    expect(mergeProgress(stored, incoming)).toEqual({
      1: { state: 'stuck', at: 200 },
      2: { state: 'stuck', at: 500 },
      3: { state: 'solved', at: 300 },
      4: { state: 'stuck', at: 50 },
    });
  });

  it('keeps the other side whole when one side is empty', () => {
    const some: ProgressLevels = { 7: { state: 'solved', at: 1 }, 8: { state: 'none', at: 2 } };
    expect(mergeProgress({}, some)).toEqual(some);
    expect(mergeProgress(some, {})).toEqual(some);
    expect(mergeProgress({}, {})).toEqual({});
  });

  it('lets a mark taken back later beat the older mark (a tombstone), and an older take-back lose', () => {
    expect(mergeProgress({ 5: { state: 'solved', at: 10 } }, { 5: { state: 'none', at: 20 } })).toEqual({ 5: { state: 'none', at: 20 } });
    expect(mergeProgress({ 5: { state: 'solved', at: 30 } }, { 5: { state: 'none', at: 20 } })).toEqual({ 5: { state: 'solved', at: 30 } });
  });

  it('keeps the stored entry on equal times, so merging the same thing twice changes nothing', () => {
    const stored: ProgressLevels = { 9: { state: 'solved', at: 42 } };
    const incoming: ProgressLevels = { 9: { state: 'stuck', at: 42 } };
    const once = mergeProgress(stored, incoming);
    expect(once).toEqual(stored);
    expect(mergeProgress(once, incoming)).toEqual(once);
  });

  it('drops changes made before the player cleared everything, on both sides', () => {
    const stored: ProgressLevels = { 1: { state: 'solved', at: 100 }, 2: { state: 'solved', at: 300 } };
    const incoming: ProgressLevels = { 3: { state: 'stuck', at: 150 }, 4: { state: 'stuck', at: 250 } };
    expect(mergeProgress(stored, incoming, 200)).toEqual({ 2: { state: 'solved', at: 300 }, 4: { state: 'stuck', at: 250 } });
  });
});

describe('clock skew: entries travel as ages, dated by the receiver', () => {
  const serverNow = Date.UTC(2026, 10, 26, 12, 0);

  it('moves a fast clock back: a browser one hour ahead loses to a later change on the account', () => {
    const browserNow = serverNow + HOUR; // its clock reads 13:00 at 12:00
    // Marked solved 30 minutes ago by the browser's clock (it reads 12:30, really 11:30).
    const browser = { 12: { state: 'solved' as const, at: browserNow - 30 * MIN } };
    // Another device marked it stuck 10 minutes ago (11:50, server time).
    const account = { 12: { state: 'stuck' as const, at: serverNow - 10 * MIN } };
    const shifted = shiftClock(browser, browserNow, serverNow);
    expect(shifted[12]).toEqual({ state: 'solved', at: serverNow - 30 * MIN });
    expect(mergeProgress(account, shifted)[12]).toEqual(account[12]);
    // Compared as raw times, the wrong change would have won.
    expect(mergeProgress(account, browser)[12]!.state).toBe('solved');
  });

  it('moves a slow clock forward: a browser a day behind still wins with its newer change', () => {
    const browserNow = serverNow - 24 * HOUR;
    const browser = { 3: { state: 'solved' as const, at: browserNow - MIN } };
    const account = { 3: { state: 'stuck' as const, at: serverNow - 5 * MIN } };
    expect(mergeProgress(account, shiftClock(browser, browserNow, serverNow))[3]).toEqual({ state: 'solved', at: serverNow - MIN });
  });

  it('counts a change dated after the browser\'s own now (its clock was set back) as made now', () => {
    const browserNow = serverNow;
    expect(shiftClock({ 4: { state: 'stuck', at: browserNow + 5 * HOUR } }, browserNow, serverNow)[4]!.at).toBe(serverNow);
  });

  it('round-trips: to the server clock and back gives the browser its own times', () => {
    const browserNow = serverNow + 3 * HOUR;
    const browser: ProgressLevels = { 1: { state: 'solved', at: browserNow - 2 * MIN }, 2: { state: 'none', at: browserNow - HOUR } };
    expect(shiftClock(shiftClock(browser, browserNow, serverNow), serverNow, browserNow)).toEqual(browser);
  });
});

describe('toExport', () => {
  it('dates every entry, in level order', () => {
    const at = Date.UTC(2026, 10, 26, 9, 30);
    expect(toExport({ 12: { state: 'stuck', at }, 3: { state: 'solved', at } }, at + 1000)).toEqual({
      exportedAt: '2026-11-26T09:30:01.000Z',
      levels: [
        { level: 3, state: 'solved', changedAt: '2026-11-26T09:30:00.000Z' },
        { level: 12, state: 'stuck', changedAt: '2026-11-26T09:30:00.000Z' },
      ],
    });
  });
});

describe('continueAt', () => {
  const guides = '1-5 7 9 12-14 27 30';

  it('is the first level with a guide after the highest solved one, whatever the order they were solved in', () => {
    expect(continueAt({ 3: { state: 'solved', at: 9 }, 12: { state: 'solved', at: 1 }, 14: { state: 'stuck', at: 5 } }, guides)).toBe(13);
    expect(continueAt({ 4: { state: 'solved', at: 1 } }, guides)).toBe(5);
  });

  it('skips the levels without a guide, as the guide\'s "On to level N" does', () => {
    expect(continueAt({ 27: { state: 'solved', at: 1 } }, guides)).toBe(30);
    expect(continueAt({ 5: { state: 'solved', at: 1 } }, guides)).toBe(7);
    // A solved level without a guide of its own: the next guide after it.
    expect(continueAt({ 28: { state: 'solved', at: 1 } }, guides)).toBe(30);
  });

  it('is nothing without a solved level, or past the last guide', () => {
    expect(continueAt({}, guides)).toBeUndefined();
    expect(continueAt({ 4: { state: 'stuck', at: 1 }, 5: { state: 'none', at: 2 } }, guides)).toBeUndefined();
    expect(continueAt({ 30: { state: 'solved', at: 1 } }, guides)).toBeUndefined();
    expect(continueAt({ 3: { state: 'solved', at: 1 } }, '')).toBeUndefined();
  });
});

describe('parseStoredProgress', () => {
  it('reads what storedProgress wrote', () => {
    const levels: ProgressLevels = { 1: { state: 'solved', at: 5 }, 20: { state: 'none', at: 6 } };
    expect(parseStoredProgress(storedProgress(levels))).toEqual(levels);
  });

  it('keeps only well-formed entries of anything else', () => {
    expect(parseStoredProgress(null)).toEqual({});
    expect(parseStoredProgress('not json')).toEqual({});
    expect(parseStoredProgress('null')).toEqual({});
    expect(parseStoredProgress('{"levels":[1,2]}')).toEqual({});
    expect(
      parseStoredProgress(
        JSON.stringify({
          levels: { 1: { state: 'solved', at: 1 }, 0: { state: 'solved', at: 1 }, x: { state: 'solved', at: 1 }, 2: { state: 'won', at: 1 }, 3: { state: 'stuck', at: '1' }, 4: null },
        }),
      ),
    ).toEqual({ 1: { state: 'solved', at: 1 } });
  });
});
