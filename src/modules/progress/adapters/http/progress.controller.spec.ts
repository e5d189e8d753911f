import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { ProgressService } from '../../application/progress.service';
import { AccountProgressRepository } from '../../domain/account-progress-repository.port';
import { ProgressCountRepository } from '../../domain/progress-count-repository.port';
import { InMemoryAccountProgressRepository } from '../../testing/in-memory-account-progress-repository';
import { InMemoryProgressCountRepository } from '../../testing/in-memory-progress-count-repository';
import { ProgressController } from './progress.controller';

describe('ProgressController (in process)', () => {
  let accounts: TestAccounts;
  let progress: InMemoryAccountProgressRepository;
  let counts: InMemoryProgressCountRepository;
  beforeEach(() => {
    accounts = new TestAccounts();
    progress = new InMemoryAccountProgressRepository();
    counts = new InMemoryProgressCountRepository();
  });
  const api = useControllers(() => ({
    controllers: [ProgressController],
    providers: [
      ProgressService,
      LevelsService,
      { provide: AccountProgressRepository, useValue: progress },
      { provide: ProgressCountRepository, useValue: counts },
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      ...accounts.providers(),
    ],
    config: testConfig({ LEVEL_SEARCH_MAX: '100' }),
  }));

  const sync = (headers: Record<string, string>, levels: object[]) => api.inject({ method: 'POST', url: '/api/v1/me/progress', headers, payload: { levels } });

  it("merges a browser's marks into the account (levels past the last left out), exports them with dates, and clears them", async () => {
    const { userId, headers } = await accounts.signIn();
    const merged = await sync(headers, [
      { level: 27, state: 'solved', ago: 60_000 },
      { level: 101, state: 'stuck', ago: 0 },
    ]);
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toEqual({ levels: [{ level: 27, state: 'solved', ago: expect.any(Number) }], clearedAgo: null, cursor: expect.any(String) });
    // Another browser's later change of the same level wins.
    await sync(headers, [{ level: 27, state: 'stuck', ago: 0 }]);
    const exported = (await api.inject({ method: 'GET', url: '/api/v1/me/progress', headers })).json();
    expect(exported.levels).toEqual([{ level: 27, state: 'stuck', changedAt: expect.any(String) }]);
    const cleared = await api.inject({ method: 'DELETE', url: '/api/v1/me/progress', headers });
    expect([cleared.statusCode, cleared.body]).toEqual([204, '']);
    expect((await progress.read(userId)).levels).toEqual({});
    expect((await sync(headers, [])).json().clearedAgo).toEqual(expect.any(Number));
  });

  it("keeps each account's progress its own, and wants a session for all of it", async () => {
    await sync((await accounts.signIn('ann@example.com')).headers, [{ level: 27, state: 'solved', ago: 0 }]);
    const bob = await accounts.signIn('bob@example.com');
    expect((await api.inject({ method: 'GET', url: '/api/v1/me/progress', headers: bob.headers })).json().levels).toEqual([]);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const anonymous = await api.inject({ method, url: '/api/v1/me/progress', ...(method === 'POST' ? { payload: { levels: [] } } : {}) });
      expect([method, anonymous.statusCode, errorOf(anonymous).code]).toEqual([method, 401, 'AUTH.SIGN_IN_REQUIRED']);
    }
  });

  it('refuses a sync out of shape: 400, nothing stored', async () => {
    const { userId, headers } = await accounts.signIn();
    const batches = [[{ level: 27, state: 'won', ago: 0 }], [{ level: 27, state: 'solved', ago: -1 }], [{ level: 27, state: 'solved', ago: 0 }, { level: 27, state: 'stuck', ago: 0 }], Array.from({ length: 501 }, (_, i) => ({ level: i + 1, state: 'solved', ago: 0 }))];
    for (const levels of batches) {
      const refused = await sync(headers, levels);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
    expect(progress.rows.has(userId)).toBe(false);
  });

  it('counts an anonymous tap once per browser, and refuses a level without a guide (404) or a bad number (400)', async () => {
    const tap = (level: string, state: string, cookies: Record<string, string> = {}) => api.inject({ method: 'POST', url: `/api/v1/levels/${level}/progress`, cookies, payload: { state } });
    const first = await tap('27', 'stuck');
    expect([first.statusCode, first.body]).toEqual([204, '']);
    const vid = first.cookies.find((c) => c.name === 'vid')!.value;
    await tap('27', 'solved', { vid });
    expect([counts.count(27, 'solved'), counts.count(27, 'stuck')]).toEqual([1, 0]);
    const noGuide = await tap('28', 'solved');
    expect([noGuide.statusCode, errorOf(noGuide).code]).toEqual([404, 'PROGRESS.NO_GUIDE']);
    const pastLast = await tap('101', 'solved');
    expect([pastLast.statusCode, errorOf(pastLast).errors]).toEqual([400, ['Invalid level number: it must be a whole number from 1 to 100']]);
    expect((await tap('27', 'won', { vid })).statusCode).toBe(400);
  });
});
