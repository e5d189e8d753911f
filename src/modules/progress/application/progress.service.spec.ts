import { loadConfig } from 'src/config/app-config';
import type { ProgressLevels } from 'src/contracts/progress';
import type { LevelsService } from 'src/modules/levels';
import { AccountProgressRepository, type AccountProgress } from '../domain/account-progress-repository.port';
import { ProgressCountRepository } from '../domain/progress-count-repository.port';
import { NoGuideError, UnknownLadderError } from '../domain/progress.errors';
import { ProgressService } from './progress.service';

class MemoryAccounts extends AccountProgressRepository {
  readonly rows = new Map<string, AccountProgress>();
  async update(userId: string, merge: (current: AccountProgress) => ProgressLevels) {
    const current = this.rows.get(userId) ?? { levels: {}, clearedAt: null };
    const next = { levels: merge(current), clearedAt: current.clearedAt };
    this.rows.set(userId, next);
    return next;
  }
  async read(userId: string) {
    return this.rows.get(userId) ?? { levels: {}, clearedAt: null };
  }
  async clear(userId: string, at: Date) {
    this.rows.set(userId, { levels: {}, clearedAt: at.getTime() });
  }
}

class MemoryCounts extends ProgressCountRepository {
  readonly marks = new Map<string, string>();
  /** `level:ladder:voter` → `state:revealed`. */
  readonly stops = new Map<string, string>();
  async record(level: number, voterHash: string, state: string) {
    if (state === 'none') this.marks.delete(`${level}:${voterHash}`);
    else this.marks.set(`${level}:${voterHash}`, state);
  }
  async recordStops(level: number, voterHash: string, state: string, ladders: Record<string, number>) {
    if (state === 'none') for (const key of this.stops.keys()) if (key.startsWith(`${level}:`) && key.endsWith(`:${voterHash}`)) this.stops.delete(key);
    for (const [ladder, revealed] of Object.entries(ladders)) if (state !== 'none') this.stops.set(`${level}:${ladder}:${voterHash}`, `${state}:${revealed}`);
  }
}

const NOW = Date.UTC(2026, 10, 26, 12, 0);
const HOUR = 3_600_000;

function setup() {
  const accounts = new MemoryAccounts();
  const counts = new MemoryCounts();
  const guides: Record<number, object> = {
    27: { number: 27, hintsHtml: [], puzzles: [{ id: 'telescope', hintsHtml: ['a', 'b', 'c'] }, { id: 'dome-code', hintsHtml: ['a', 'b'] }] },
    1: { number: 1, hintsHtml: ['a', 'b'] },
  };
  const levels = { level: async (n: number) => guides[n] ?? null } as unknown as LevelsService;
  const service = new ProgressService(accounts, counts, levels, loadConfig(undefined, { LEVEL_SEARCH_MAX: '635' }));
  return { service, accounts, counts };
}

describe('ProgressService', () => {
  it("dates a browser's entries by their age on the server's clock and answers ages back", async () => {
    const { service, accounts } = setup();
    accounts.rows.set('u1', { levels: { 5: { state: 'stuck', at: NOW - HOUR / 6 } }, clearedAt: null });
    // The browser's clock is an hour fast: its "30 minutes ago" is still 30 minutes ago.
    const result = await service.sync('u1', { levels: [{ level: 5, state: 'solved', ago: HOUR / 2 }, { level: 6, state: 'solved', ago: 0 }] }, NOW);
    expect(result).toEqual({
      levels: [
        { level: 5, state: 'stuck', ago: HOUR / 6 },
        { level: 6, state: 'solved', ago: 0 },
      ],
      clearedAgo: null,
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
    expect(result).toEqual({ levels: [{ level: 2, state: 'stuck', ago: 0 }], clearedAgo: HOUR });
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
