import { join } from 'node:path';
import { useInProcessSite } from './support/site';

const CONTENT_DIR = join(__dirname, 'fixtures/content');
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('progress over HTTP (PostgreSQL)', () => {
  // TRUST_PROXY=loopback: a test that sends X-Forwarded-For is a client of its own (its own rate-limit budget).
  const site = useInProcessSite({ env: { MIGRATE_ON_START: 'true', CONTENT_DIR, HAS_LOGIN: 'true', TRUST_PROXY: 'loopback' } });
  const call = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
    const { token, json, ...rest } = init;
    return fetch(`${site.url}${path}`, {
      ...rest,
      headers: {
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(rest.headers as Record<string, string>),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  const sync = (token: string, levels: { level: number; state: string; ago: number }[]) => call('/api/v1/me/progress', { method: 'POST', token, json: { levels } });
  const states = (body: { levels: { level: number; state: string }[] }) => Object.fromEntries(body.levels.map((item) => [item.level, item.state]));

  describe("a signed-in player's progress", () => {
    it('merges each browser in: per level the later change wins, whatever the other side holds', async () => {
      const token = await site.signedInUser('merge@example.com');
      const laptop = await sync(token, [
        { level: 10, state: 'solved', ago: 2 * HOUR },
        { level: 11, state: 'stuck', ago: HOUR },
      ]);
      expect(laptop.status).toBe(200);
      expect(laptop.headers.get('cache-control')).toBe('no-store');
      expect(states(await laptop.json())).toEqual({ 10: 'solved', 11: 'stuck' });

      // The phone changed 10 after the laptop did, and took 11 back before the laptop marked it.
      const phone = await sync(token, [
        { level: 10, state: 'stuck', ago: 30 * MIN },
        { level: 11, state: 'none', ago: 3 * HOUR },
        { level: 20, state: 'solved', ago: 0 },
      ]);
      const body = await phone.json();
      expect(states(body)).toEqual({ 10: 'stuck', 11: 'stuck', 20: 'solved' });
      expect(body.clearedAgo).toBeNull();
      // Ages come back on the server's clock: the laptop's 11 was an hour ago.
      const eleven = body.levels.find((item: { level: number }) => item.level === 11);
      expect(eleven.ago).toBeGreaterThanOrEqual(HOUR);
      expect(eleven.ago).toBeLessThan(HOUR + MIN);

      // A browser with nothing gets it all (a second device signing in).
      expect(states(await (await sync(token, [])).json())).toEqual({ 10: 'stuck', 11: 'stuck', 20: 'solved' });
      // Another account sees none of it.
      expect((await (await sync(await site.signedInUser('other@example.com'), [])).json()).levels).toEqual([]);
    });

    it('loses nothing when many browsers sync at once', async () => {
      const token = await site.signedInUser('many@example.com');
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sync(token, [{ level: i + 1, state: 'solved', ago: 1000 }])));
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      const all = await (await sync(token, [])).json();
      expect(all.levels.map((item: { level: number }) => item.level)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      // The same level from many browsers at once: the latest change wins, whichever request lands last.
      await Promise.all(Array.from({ length: 12 }, (_, i) => sync(token, [{ level: 30, state: i === 5 ? 'stuck' : 'solved', ago: i === 5 ? 10 : HOUR + i }])));
      expect(states(await (await sync(token, [])).json())[30]).toBe('stuck');
    });

    it('exports with dates, and clears: older entries from other browsers stay cleared, newer ones count', async () => {
      const token = await site.signedInUser('clear@example.com');
      await sync(token, [
        { level: 10, state: 'solved', ago: 10 * MIN },
        { level: 12, state: 'stuck', ago: 5 * MIN },
      ]);
      const exported = await call('/api/v1/me/progress', { token });
      expect(exported.status).toBe(200);
      const document = await exported.json();
      expect(document.levels).toEqual([
        { level: 10, state: 'solved', changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        { level: 12, state: 'stuck', changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      ]);
      expect(Date.parse(document.exportedAt) - Date.parse(document.levels[0].changedAt)).toBeGreaterThanOrEqual(10 * MIN);

      expect((await call('/api/v1/me/progress', { method: 'DELETE', token })).status).toBe(204);
      expect((await (await call('/api/v1/me/progress', { token })).json()).levels).toEqual([]);
      // Another browser still holds the old marks, and made one new mark since the clear.
      const after = await (await sync(token, [
        { level: 10, state: 'solved', ago: 10 * MIN },
        { level: 13, state: 'solved', ago: 0 },
      ])).json();
      expect(states(after)).toEqual({ 13: 'solved' });
      expect(after.clearedAgo).toBeGreaterThanOrEqual(0);
      expect(after.clearedAgo).toBeLessThan(MIN);
      // Clearing twice is fine.
      expect((await call('/api/v1/me/progress', { method: 'DELETE', token })).status).toBe(204);
    });

    it('after the first sync, takes and answers only what changed since the cursor; refuses a cursor not of this account', async () => {
      const token = await site.signedInUser('delta@example.com');
      const post = (json: unknown) => call('/api/v1/me/progress', { method: 'POST', token, json });
      const laptop = await (await sync(token, [{ level: 10, state: 'solved', ago: HOUR }, { level: 11, state: 'stuck', ago: HOUR }])).json();
      const phone = await (await sync(token, [])).json();
      expect(states(phone)).toEqual({ 10: 'solved', 11: 'stuck' });

      // A tap on the phone: one entry out, and back only that one (the answer to a delta).
      const tap = { levels: [{ level: 12, state: 'solved', ago: 0 }], since: phone.cursor };
      const tapped = await (await post(tap)).json();
      expect(states(tapped)).toEqual({ 12: 'solved' });
      expect(tapped.cursor).not.toBe(phone.cursor);
      // The same tap again (its answer was lost): nothing changes for the account.
      expect(states(await (await post(tap)).json())).toEqual({ 12: 'solved' });
      // The laptop, since its cursor, gets the phone's change and nothing it already had.
      const pulled = await (await post({ levels: [], since: laptop.cursor })).json();
      expect(states(pulled)).toEqual({ 12: 'solved' });
      expect((await (await post({ levels: [], since: pulled.cursor })).json()).levels).toEqual([]);
      expect(states(await (await sync(token, [])).json())).toEqual({ 10: 'solved', 11: 'stuck', 12: 'solved' });

      // Another account's cursor (this browser was signed in as someone else): 409, start over without it.
      const other = await (await sync(await site.signedInUser('delta-other@example.com'), [])).json();
      const refused = await post({ levels: [{ level: 13, state: 'solved', ago: 0 }], since: other.cursor });
      expect(refused.status).toBe(409);
      expect((await refused.json()).code).toBe('PROGRESS.SYNC_RESTART');
      // A cursor that is not one: 400, and bounded.
      for (const since of ['', 'x'.repeat(60), '../..', 12, null]) expect((await post({ levels: [], since })).status).toBe(400);
    });

    it('goes with the account when the account is deleted', async () => {
      const token = await site.signedInUser('leaving@example.com');
      await sync(token, [{ level: 10, state: 'solved', ago: 0 }]);
      await call('/api/v1/me/progress', { method: 'DELETE', token });
      await sync(token, [{ level: 11, state: 'solved', ago: 0 }]);
      const db = await site.db();
      const { rows } = await db.query(`delete from users where email = 'leaving@example.com' returning id`);
      const left = await db.query(
        `select (select count(*) from account_progress where user_id = $1)::int + (select count(*) from account_progress_resets where user_id = $1)::int as n`,
        [rows[0].id],
      );
      expect(left.rows[0].n).toBe(0);
    });

    it('needs a session, and refuses malformed syncs with 4xx', async () => {
      expect((await sync('', [])).status).toBe(401);
      expect((await call('/api/v1/me/progress')).status).toBe(401);
      expect((await call('/api/v1/me/progress', { method: 'DELETE' })).status).toBe(401);
      const token = await site.signedInUser('hostile@example.com');
      const refused = [
        await sync(token, [{ level: 10, state: 'solved', ago: 0 }, { level: 10, state: 'stuck', ago: 0 }]),
        await sync(token, Array.from({ length: 501 }, (_, i) => ({ level: i + 1, state: 'solved', ago: 0 }))),
        await sync(token, [{ level: 10, state: 'solved', ago: -1 }]),
        await sync(token, [{ level: 10, state: 'won', ago: 0 }]),
        await sync(token, [{ level: 10, state: 'solved\u0000', ago: 0 }]),
        await sync(token, [{ level: 0, state: 'solved', ago: 0 }]),
        await call('/api/v1/me/progress', { method: 'POST', token, json: { levels: [], extra: 'x'.repeat(1000) } }),
        await call('/api/v1/me/progress', { method: 'POST', token, json: 'x'.repeat(1024 * 1024) }),
        await call('/api/v1/me/progress', { method: 'POST', token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'levels=1' }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 400, 413, 415]);
      // Levels past the game's last are left out, not refused.
      expect(states(await (await sync(token, [{ level: 9000, state: 'solved', ago: 0 }, { level: 10, state: 'solved', ago: 0 }])).json())).toEqual({ 10: 'solved' });
    });
  });

  describe('the anonymous solved/stuck count', () => {
    it('counts one mark per browser per guide, changeable, and takes it back', async () => {
      const first = await call('/api/v1/levels/10/progress', { method: 'POST', json: { state: 'solved' } });
      expect(first.status).toBe(204);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const db = await site.db();
      const marks = async () => (await db.query(`select state from progress_marks where level_number = 10 order by state`)).rows.map((row) => row.state);
      expect(await marks()).toEqual(['solved']);
      await call('/api/v1/levels/10/progress', { method: 'POST', json: { state: 'stuck' }, headers: { cookie } });
      expect(await marks()).toEqual(['stuck']);
      await call('/api/v1/levels/10/progress', { method: 'POST', json: { state: 'solved' } });
      expect(await marks()).toEqual(['solved', 'stuck']);
      await call('/api/v1/levels/10/progress', { method: 'POST', json: { state: 'none' }, headers: { cookie } });
      expect(await marks()).toEqual(['solved']);
      // Nothing in the table says who: a hash of the random browser id, no account, no address.
      const columns = (await db.query(`select column_name from information_schema.columns where table_name = 'progress_marks' order by 1`)).rows;
      expect(columns.map((row) => row.column_name)).toEqual(['level_number', 'state', 'updated_at', 'voter_hash']);
    });

    it('counts where each browser stopped on the ladder, once per browser, and refuses a ladder the guide does not have', async () => {
      // Level 20 has no puzzles: its one ladder is "level", with 2 hints.
      const tap = (json: unknown, cookie?: string) =>
        call('/api/v1/levels/20/progress', { method: 'POST', json, headers: { 'x-forwarded-for': '203.0.113.20', ...(cookie ? { cookie } : {}) } });
      const first = await tap({ state: 'stuck', ladders: { level: 1 } });
      expect(first.status).toBe(204);
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      await tap({ state: 'stuck', ladders: { level: 2 } }, cookie);
      await tap({ state: 'solved', ladders: { level: 2 } });
      const db = await site.db();
      const stops = async () =>
        (await db.query(`select state, revealed from ladder_stops where level_number = 20 order by state, revealed`)).rows.map((row) => `${row.state} ${row.revealed}`);
      expect(await stops()).toEqual(['solved 2', 'stuck 2']);
      const refused = await tap({ state: 'stuck', ladders: { 'dome-code': 1 } }, cookie);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'PROGRESS.UNKNOWN_LADDER' });
      expect((await tap({ state: 'stuck', ladders: { level: 3 } }, cookie)).status).toBe(400);
      expect(await stops()).toEqual(['solved 2', 'stuck 2']);
      // Taking the mark back takes the stops back.
      await tap({ state: 'none' }, cookie);
      expect(await stops()).toEqual(['solved 2']);
    });

    it('refuses levels without a guide, bad numbers and bad bodies', async () => {
      const statuses = [
        await call('/api/v1/levels/15/progress', { method: 'POST', json: { state: 'solved' } }),
        await call('/api/v1/levels/0/progress', { method: 'POST', json: { state: 'solved' } }),
        await call('/api/v1/levels/abc/progress', { method: 'POST', json: { state: 'solved' } }),
        await call('/api/v1/levels/11/progress', { method: 'POST', json: { state: 'maybe' } }),
        await call('/api/v1/levels/11/progress', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'state=solved' }),
      ].map((answer) => answer.status);
      expect(statuses).toEqual([404, 400, 400, 400, 415]);
    });

    it('rate limits taps from one client with 429', async () => {
      let limited: Response | undefined;
      for (let i = 0; i < 15 && !limited; i++) {
        const answer = await call('/api/v1/levels/12/progress', { method: 'POST', json: { state: i % 2 ? 'solved' : 'stuck' } });
        if (answer.status === 429) limited = answer;
      }
      expect(limited?.status).toBe(429);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
