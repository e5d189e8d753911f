import { loadConfig } from 'src/config/app-config';
import type { ProgressLevels, ProgressState } from 'src/contracts/progress';
import { applySyncAnswer, pendingChanges, toItems, type ProgressSyncResult, type ProgressSyncState } from 'src/contracts/progress-sync';
import { LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { InMemoryAccountProgressRepository } from '../testing/in-memory-account-progress-repository';
import { InMemoryProgressCountRepository } from '../testing/in-memory-progress-count-repository';
import { NoGuideError, SyncRestartError, UnknownLadderError } from '../domain/progress.errors';
import { ProgressService } from './progress.service';
import type { AccountProgress } from '../domain/account-progress-repository.port';

const NOTHING: AccountProgress = { levels: {}, clearedAt: null, revision: 0, changedIn: {} };
const NOW = Date.UTC(2026, 10, 26, 12, 0);
const HOUR = 3_600_000;

function setup() {
  const accounts = new InMemoryAccountProgressRepository();
  const counts = new InMemoryProgressCountRepository();
  const config = loadConfig(undefined, { LEVEL_SEARCH_MAX: '635' });
  // Level 27 has a guide in two puzzles (ladders of 3 and 2 hints), level 1 one ladder of 2.
  const puzzle = (id: string, hints: number, firstStep: number) => ({ id, question: `${id}?`, hintsHtml: Array.from({ length: hints }, (_, i) => `<p>${i}</p>`), firstStep, stepCount: 1 });
  const levels = new LevelsService(
    new InMemoryLevelRepository([aLevel(27, { hints: [], puzzles: [puzzle('telescope', 3, 0), puzzle('dome-code', 2, 1)] }), aLevel(1, { hints: ['a', 'b'] })]),
    new InMemoryGuideVoteRepository(),
  );
  const service = new ProgressService(accounts, counts, levels, config);
  return { service, accounts, counts };
}

describe('ProgressService', () => {
  it("dates a browser's entries by their age on the server's clock and answers ages back", async () => {
    const { service, accounts } = setup();
    accounts.rows.set('u1', { ...NOTHING, levels: { 5: { state: 'stuck', at: NOW - HOUR / 6 } }, revision: 1, changedIn: { 5: 1 } });
    // The browser's clock is an hour fast: its "30 minutes ago" is still 30 minutes ago.
    const result = await service.sync('u1', { levels: [{ level: 5, state: 'solved', ago: HOUR / 2 }, { level: 6, state: 'solved', ago: 0 }] }, NOW);
    expect(result).toEqual({
      levels: [
        { level: 5, state: 'stuck', ago: HOUR / 6 },
        { level: 6, state: 'solved', ago: 0 },
      ],
      clearedAgo: null,
      cursor: expect.stringMatching(/\.2$/),
    });
  });

  it("leaves out levels past the game's last instead of refusing the sync", async () => {
    const { service } = setup();
    const result = await service.sync('u1', { levels: [{ level: 636, state: 'solved', ago: 0 }, { level: 635, state: 'solved', ago: 0 }] }, NOW);
    expect(result.levels.map((item) => item.level)).toEqual([635]);
  });

  it('answers how long ago the player cleared everything, and drops what the browser held from before', async () => {
    const { service } = setup();
    await service.clear('u1', new Date(NOW - HOUR));
    const result = await service.sync('u1', { levels: [{ level: 1, state: 'solved', ago: 2 * HOUR }, { level: 2, state: 'stuck', ago: 0 }] }, NOW);
    expect(result).toEqual({ levels: [{ level: 2, state: 'stuck', ago: 0 }], clearedAgo: HOUR, cursor: expect.any(String) });
  });

  describe('syncs after the first: what changed since the cursor', () => {
    const ages = (result: ProgressSyncResult) => result.levels.map(({ level, state }) => `${level} ${state}`);

    it("answers only the other devices' changes since the cursor and the levels sent, the latter as the account holds them", async () => {
      const { service } = setup();
      const laptop = await service.sync('u1', { levels: [1, 2, 3].map((level) => ({ level, state: 'solved' as const, ago: HOUR })) }, NOW);
      const phone = await service.sync('u1', { levels: [] }, NOW);
      expect(ages(phone)).toEqual(['1 solved', '2 solved', '3 solved']);
      // The laptop marks 4; the phone, since, took 1 back and marked 2 stuck half an hour ago.
      await service.sync('u1', { levels: [{ level: 1, state: 'none', ago: 0 }, { level: 2, state: 'stuck', ago: HOUR / 2 }], since: phone.cursor }, NOW);
      const tap = await service.sync('u1', { levels: [{ level: 4, state: 'stuck', ago: 0 }, { level: 2, state: 'solved', ago: HOUR }], since: laptop.cursor }, NOW);
      // 3 is unchanged since the laptop's cursor: not sent again. 2 went back as the account holds it (the phone's later change).
      expect(ages(tap)).toEqual(['1 none', '2 stuck', '4 stuck']);
      // Nothing changed since: an empty answer, and the same cursor.
      const quiet = await service.sync('u1', { levels: [], since: tap.cursor }, NOW);
      expect(quiet).toEqual({ levels: [], clearedAgo: null, cursor: tap.cursor });
    });

    it("refuses another account's cursor, a made-up one, or one from ahead of the account (a restored database): the browser starts over", async () => {
      const { service } = setup();
      const other = await service.sync('u2', { levels: [{ level: 1, state: 'solved', ago: 0 }] }, NOW);
      await expect(service.sync('u1', { levels: [], since: other.cursor }, NOW)).rejects.toBeInstanceOf(SyncRestartError);
      const mine = await service.sync('u1', { levels: [{ level: 1, state: 'solved', ago: 0 }] }, NOW);
      const ahead = mine.cursor.replace(/\d+$/, (revision) => String(Number(revision) + 1));
      await expect(service.sync('u1', { levels: [], since: ahead }, NOW)).rejects.toBeInstanceOf(SyncRestartError);
      await expect(service.sync('u1', { levels: [], since: 'abc.1' }, NOW)).rejects.toBeInstanceOf(SyncRestartError);
      expect((await service.sync('u1', { levels: [], since: mine.cursor }, NOW)).levels).toEqual([]);
    });
  });

  it('exports the account with dates', async () => {
    const { service } = setup();
    await service.sync('u1', { levels: [{ level: 3, state: 'solved', ago: HOUR }] }, NOW);
    expect(await service.export('u1', NOW)).toEqual({
      exportedAt: '2026-11-26T12:00:00.000Z',
      levels: [{ level: 3, state: 'solved', changedAt: '2026-11-26T11:00:00.000Z' }],
    });
  });

  it('counts one mark per browser per guide under a hash, and refuses a level without a guide', async () => {
    const { service, counts } = setup();
    await service.mark(27, 'browser-a', 'solved');
    await service.mark(27, 'browser-a', 'stuck');
    await service.mark(27, 'browser-b', 'solved');
    expect([...counts.marks.values()].sort()).toEqual(['solved', 'stuck']);
    expect([...counts.marks.keys()].join()).not.toContain('browser-a');
    await service.mark(27, 'browser-b', 'none');
    expect([...counts.marks.values()]).toEqual(['stuck']);
    await expect(service.mark(28, 'browser-a', 'solved')).rejects.toBeInstanceOf(NoGuideError);
  });

  it('counts where each browser stopped on each ladder, once per browser per ladder, the latest tap', async () => {
    const { service, counts } = setup();
    await service.mark(27, 'browser-a', 'stuck', { 'dome-code': 1 });
    await service.mark(27, 'browser-a', 'stuck', { 'dome-code': 2 });
    await service.mark(27, 'browser-a', 'solved', { telescope: 3, 'dome-code': 2 });
    await service.mark(27, 'browser-b', 'stuck', { telescope: 1 });
    await service.mark(1, 'browser-b', 'stuck', { level: 2 });
    expect([...counts.stops.entries()].map(([key, value]) => `${key.split(':').slice(0, 2).join(':')} ${value}`).sort()).toEqual([
      '1:level stuck:2',
      '27:dome-code solved:2',
      '27:telescope solved:3',
      '27:telescope stuck:1',
    ]);
    // Taking the mark back takes its stops back.
    await service.mark(27, 'browser-a', 'none');
    expect([...counts.stops.values()].sort()).toEqual(['stuck:1', 'stuck:2']);
  });

  it('refuses a ladder the guide does not have, or more hints than the ladder has, and counts nothing', async () => {
    const { service, counts } = setup();
    await expect(service.mark(27, 'browser-a', 'stuck', { lantern: 1 })).rejects.toThrow('Level 27 has no hint ladder "lantern"');
    await expect(service.mark(27, 'browser-a', 'stuck', { 'dome-code': 3 })).rejects.toBeInstanceOf(UnknownLadderError);
    await expect(service.mark(1, 'browser-a', 'stuck', { telescope: 1 })).rejects.toThrow('Level 1 has no hint ladder "telescope"');
    expect(counts.marks.size + counts.stops.size).toBe(0);
  });
});

/**
 * A browser as web/lib/progress-sync.ts drives the rules of src/contracts/progress-sync.ts, with a
 * clock of its own (hours off the server's), talking to the service.
 */
class Browser {
  levels: ProgressLevels = {};
  state: ProgressSyncState = { synced: {} };
  online = true;
  /** The levels each request carried. */
  readonly requests: number[][] = [];

  constructor(
    private readonly service: ProgressService,
    public userId: string,
    private readonly skewMs: number,
  ) {}

  private now = () => clock + this.skewMs;

  tap(level: number, state: ProgressState): void {
    clock += 1000;
    this.levels = { ...this.levels, [level]: { state, at: this.now() } };
  }

  /** One sync; false when the request did not get through (offline), or its answer was lost. */
  async sync(answerLost = false): Promise<boolean> {
    const before = this.levels;
    const sent = pendingChanges(before, this.state);
    const sentAt = this.now();
    const input = { levels: toItems(sent, sentAt), ...(this.state.cursor ? { since: this.state.cursor } : {}) };
    this.requests.push(input.levels.map((item) => item.level));
    if (!this.online) return false;
    let answer: ProgressSyncResult;
    try {
      answer = await this.service.sync(this.userId, input, clock);
    } catch (error) {
      if (!(error instanceof SyncRestartError)) throw error;
      this.state = { synced: {} };
      return this.sync();
    }
    if (answerLost) return false;
    ({ levels: this.levels, state: this.state } = applySyncAnswer({ before, sent, current: this.levels, state: this.state, answer, sentAt }));
    return true;
  }

  marks(): Record<number, ProgressState> {
    return Object.fromEntries(Object.entries(this.levels).map(([level, entry]) => [level, entry.state]));
  }
}

/** The server's clock; each browser's reads it with its own skew. */
let clock = NOW;

describe('two browsers and one account, by the shared rules', () => {
  beforeEach(() => (clock = NOW));

  it('merges everything at sign-in, then each tap is one request with that mark only, and the other browser gets only it', async () => {
    const { service } = setup();
    const phone = new Browser(service, 'u1', 3 * HOUR);
    const laptop = new Browser(service, 'u1', -HOUR);
    phone.tap(1, 'solved');
    phone.tap(2, 'stuck');
    laptop.tap(3, 'solved');
    expect(await phone.sync()).toBe(true);
    expect(await laptop.sync()).toBe(true);
    expect(await phone.sync()).toBe(true);
    expect(phone.requests).toEqual([[1, 2], []]);
    expect(laptop.requests).toEqual([[3]]);
    expect(phone.marks()).toEqual({ 1: 'solved', 2: 'stuck', 3: 'solved' });
    expect(laptop.marks()).toEqual(phone.marks());

    phone.tap(2, 'solved');
    await phone.sync();
    expect(phone.requests.at(-1)).toEqual([2]);
    const answer = await service.sync('u1', { levels: [], since: laptop.state.cursor }, clock);
    expect(answer.levels.map((item) => item.level)).toEqual([2]);
    await laptop.sync();
    expect(laptop.marks()).toEqual({ 1: 'solved', 2: 'solved', 3: 'solved' });
    // Settled: the next syncs send nothing.
    await laptop.sync();
    await phone.sync();
    expect([laptop.requests.at(-1), phone.requests.at(-1)]).toEqual([[], []]);
  });

  it('sends what was marked offline once back online, and again after an answer that was lost: the account holds each mark once', async () => {
    const { service, accounts } = setup();
    const phone = new Browser(service, 'u1', 0);
    const laptop = new Browser(service, 'u1', 5 * 60_000);
    await phone.sync();
    await laptop.sync();
    phone.online = false;
    phone.tap(5, 'stuck');
    phone.tap(6, 'solved');
    expect(await phone.sync()).toBe(false);
    phone.online = true;
    phone.tap(7, 'solved');
    expect(await phone.sync(true)).toBe(false);
    expect(await phone.sync()).toBe(true);
    expect(phone.requests).toEqual([[], [5, 6], [5, 6, 7], [5, 6, 7]]);
    expect(Object.keys(accounts.rows.get('u1')!.levels)).toEqual(['5', '6', '7']);
    await laptop.sync();
    expect(laptop.marks()).toEqual({ 5: 'stuck', 6: 'solved', 7: 'solved' });
    // A mark taken back offline on the laptop beats the phone's older one.
    laptop.tap(6, 'none');
    await laptop.sync();
    await phone.sync();
    expect(phone.marks()[6]).toBe('none');
  });

  it("merges into another account in full when this browser's cursor was the first account's", async () => {
    const { service } = setup();
    const shared = new Browser(service, 'u1', 0);
    shared.tap(1, 'solved');
    await shared.sync();
    // Signed out and another player signed in, this browser keeping its copy and its cursor.
    shared.userId = 'u2';
    shared.tap(2, 'stuck');
    await shared.sync();
    expect(shared.requests).toEqual([[1], [2], [1, 2]]);
    expect(shared.state.cursor).toBeDefined();
    const other = new Browser(service, 'u2', 0);
    await other.sync();
    expect(other.marks()).toEqual({ 1: 'solved', 2: 'stuck' });
  });
});
