import { loadConfig } from 'src/config/app-config';
import { LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { InMemoryAccountProgressRepository } from '../testing/in-memory-account-progress-repository';
import { InMemoryProgressCountRepository } from '../testing/in-memory-progress-count-repository';
import { NoGuideError } from '../domain/progress.errors';
import { ProgressService } from './progress.service';

const NOW = Date.UTC(2026, 10, 26, 12, 0);
const HOUR = 3_600_000;

function setup() {
  const accounts = new InMemoryAccountProgressRepository();
  const counts = new InMemoryProgressCountRepository();
  const config = loadConfig(undefined, { LEVEL_SEARCH_MAX: '635' });
  // Level 27 has a guide.
  const levels = new LevelsService(new InMemoryLevelRepository([aLevel(27)]), new InMemoryGuideVoteRepository(), config);
  const service = new ProgressService(accounts, counts, levels, config);
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
});
