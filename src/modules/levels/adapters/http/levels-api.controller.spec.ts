import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { ADMIN_EMAIL, errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { LevelsService } from '../../application/levels.service';
import { GuideVoteRepository } from '../../domain/guide-vote-repository.port';
import { LevelRepository } from '../../domain/level-repository.port';
import { InMemoryGuideVoteRepository } from '../../testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from '../../testing/in-memory-level-repository';
import { LevelsApiController } from './levels-api.controller';

describe('LevelsApiController (in process)', () => {
  let accounts: TestAccounts;
  let votes: InMemoryGuideVoteRepository;
  beforeEach(() => {
    accounts = new TestAccounts();
    votes = new InMemoryGuideVoteRepository();
  });
  const api = useControllers(() => ({
    controllers: [LevelsApiController],
    providers: [
      LevelsService,
      {
        provide: LevelRepository,
        useValue: new InMemoryLevelRepository([
          aLevel(1, { difficulty: 'easy', title: 'The Front Door' }),
          aLevel(27, { title: 'The Locked Observatory', searchText: 'a brass telescope points at the stars' }),
          aLevel(33, { difficulty: 'hard', published: false }),
        ], votes),
      },
      { provide: GuideVoteRepository, useValue: votes },
      ...accounts.providers(),
    ],
  }));

  it('lists the published guides, filtered by difficulty and words, with counts per difficulty', async () => {
    const all = (await api.inject({ method: 'GET', url: '/api/v1/levels' })).json();
    expect(all).toMatchObject({ total: 2, page: 1, pageCount: 1, counts: { easy: 1, medium: 1, hard: 0, all: 2 } });
    expect(all.levels.map((l: { number: number }) => l.number)).toEqual([1, 27]);
    const found = (await api.inject({ method: 'GET', url: '/api/v1/levels?query=telescope&difficulty=medium' })).json();
    expect(found.levels).toEqual([{ number: 27, title: 'The Locked Observatory', difficulty: 'medium', referenceSeconds: 120 }]);
    for (const query of ['difficulty=insane', 'page=0', 'sort=title', `query=${'x'.repeat(101)}`]) {
      const refused = await api.inject({ method: 'GET', url: `/api/v1/levels?${query}` });
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
  });

  it("answers a guide, 404 for a level without one, and 400 for a number that is not a level's", async () => {
    const guide = await api.inject({ method: 'GET', url: '/api/v1/levels/27' });
    expect(guide.statusCode).toBe(200);
    expect(guide.json()).toMatchObject({ number: 27, title: 'The Locked Observatory', hintsHtml: ['The key is under the rug.'] });
    expect(guide.json()).not.toHaveProperty('searchText');
    const unpublished = await api.inject({ method: 'GET', url: '/api/v1/levels/33' });
    expect([unpublished.statusCode, errorOf(unpublished)]).toEqual([404, { code: 'LEVELS.NO_GUIDE', errors: ['Level 33 has no guide yet'] }]);
    for (const raw of ['0', '636', '027', '27.5', 'abc']) {
      const refused = await api.inject({ method: 'GET', url: `/api/v1/levels/${raw}` });
      expect([raw, refused.statusCode, errorOf(refused).errors]).toEqual([raw, 400, ['Invalid level number: it must be a whole number from 1 to 635']]);
    }
  });

  it('counts one guide request per browser (its vid cookie) for a level without a guide; a covered level is 409', async () => {
    const first = await api.inject({ method: 'POST', url: '/api/v1/levels/40/guide_requests' });
    expect([first.statusCode, first.json()]).toEqual([201, { counted: true, requests: 1 }]);
    const cookie = first.cookies.find((c) => c.name === 'vid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' });
    const again = await api.inject({ method: 'POST', url: '/api/v1/levels/40/guide_requests', cookies: { vid: cookie.value } });
    expect(again.json()).toEqual({ counted: false, requests: 1 });
    const covered = await api.inject({ method: 'POST', url: '/api/v1/levels/27/guide_requests' });
    expect([covered.statusCode, errorOf(covered).code]).toEqual([409, 'LEVELS.HAS_GUIDE']);
  });

  it('keeps one helpfulness answer per browser, the last, and shows the share from 10 answers', async () => {
    const answer = (vid: string, payload: object) => api.inject({ method: 'POST', url: '/api/v1/levels/27/feedback', cookies: { vid }, payload });
    for (let i = 2; i <= 10; i++) await votes.saveFeedback(27, `voter-${i}`, i <= 7, undefined, new Date());
    expect((await api.inject({ method: 'GET', url: '/api/v1/levels/27' })).json()).not.toHaveProperty('helpful');
    const first = await answer('browser-000000000000000001', { helpful: false, reason: 'wrong' });
    expect([first.statusCode, first.body]).toEqual([204, '']);
    await answer('browser-000000000000000001', { helpful: true });
    expect(await votes.feedbackCounts(27)).toEqual({ helpful: 7, notHelpful: 3 });
    expect((await api.inject({ method: 'GET', url: '/api/v1/levels/27' })).json().helpful).toEqual({ percent: 70, votes: 10 });
  });

  it('refuses feedback on a level without a guide (404) or out of shape (400)', async () => {
    const noGuide = await api.inject({ method: 'POST', url: '/api/v1/levels/40/feedback', payload: { helpful: true } });
    expect([noGuide.statusCode, errorOf(noGuide).code]).toEqual([404, 'LEVELS.NO_GUIDE']);
    for (const payload of [{}, { helpful: 'yes' }, { helpful: false, reason: 'boring' }]) {
      const refused = await api.inject({ method: 'POST', url: '/api/v1/levels/27/feedback', payload });
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
    expect(await votes.feedbackCounts(27)).toEqual({ helpful: 0, notHelpful: 0 });
  });

  it('lists the most requested levels to admins only', async () => {
    await votes.addRequest(40, 'a', new Date('2026-11-01T00:00:00Z'));
    await votes.addRequest(40, 'b', new Date('2026-11-02T00:00:00Z'));
    await votes.addRequest(41, 'a', new Date('2026-11-03T00:00:00Z'));
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const wanted = await api.inject({ method: 'GET', url: '/api/v1/admin/guide_requests?limit=1', headers: admin.headers });
    expect(wanted.json()).toEqual({ data: [{ level: 40, requests: 2, last_requested_at: '2026-11-02T00:00:00.000Z' }] });
    const player = await accounts.signIn();
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/admin/guide_requests', headers: player.headers })).code).toBe('AUTH.ADMIN_REQUIRED');
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/guide_requests?limit=0', headers: admin.headers })).statusCode).toBe(400);
  });
});
