import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { ADMIN_EMAIL, errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { CreditsService } from '../../application/credits.service';
import { CreditLedger } from '../../domain/credit-ledger.port';
import { InMemoryCreditLedger } from '../../testing/in-memory-credit-ledger';
import { CreditsController } from './credits.controller';
import { PaymentsEnabledGuard } from './payments-enabled.guard';

describe('CreditsController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [CreditsController],
    providers: [CreditsService, PaymentsEnabledGuard, { provide: CreditLedger, useValue: ledger }, ...accounts.providers()],
    config: testConfig(env),
  }));

  const grant = (userId: string, credits: number) => ledger.grant({ userId, source: 'admin', sourceRef: `test:${userId}:${credits}`, credits, validityDays: 30, description: 'Goodwill' });

  it("answers the signed-in user's balance, lots and 30 days of usage, never cached", async () => {
    const { userId, headers } = await accounts.signIn();
    await grant(userId, 12);
    await grant((await accounts.signIn('other@example.com')).userId, 99);
    const response = await api.inject({ method: 'GET', url: '/api/v1/credits', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const view = response.json();
    expect(view).toMatchObject({ balance: 12, has_paid: false, trial_refused: false, lots: [{ source: 'admin', granted: 12, remaining: 12 }] });
    expect(view.daily_usage).toHaveLength(30);
  });

  it('pages the history newest first and refuses a page that is not a positive number', async () => {
    const { userId, headers } = await accounts.signIn();
    await grant(userId, 1);
    await grant(userId, 2);
    const page = await api.inject({ method: 'GET', url: '/api/v1/credits/history?page=1', headers });
    expect(page.json()).toMatchObject({ page: 1, pages: 1, total: 2, items: [{ kind: 'grant', credits: 2 }, { kind: 'grant', credits: 1 }] });
    for (const query of ['page=0', 'page=two', 'page=1&extra=1']) {
      const refused = await api.inject({ method: 'GET', url: `/api/v1/credits/history?${query}`, headers });
      expect([query, refused.statusCode, errorOf(refused).code]).toEqual([query, 400, 'REQUEST.INVALID']);
    }
  });

  it('wants a live session: none, an unknown token or one in the URL is refused', async () => {
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/credits' }))).toMatchObject({ code: 'AUTH.SIGN_IN_REQUIRED' });
    const unknown = await api.inject({ method: 'GET', url: '/api/v1/credits', headers: { authorization: `Bearer ${'x'.repeat(43)}` } });
    expect([unknown.statusCode, errorOf(unknown).code]).toEqual([401, 'AUTH.SIGN_IN_REQUIRED']);
    const { token } = await accounts.signIn();
    const inUrl = await api.inject({ method: 'GET', url: `/api/v1/credits?token=${token}` });
    expect([inUrl.statusCode, errorOf(inUrl).code]).toEqual([400, 'AUTH.TOKEN_IN_URL']);
  });

  it('lets an admin grant credits once per Idempotency-Key, with the reason in the history', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const { userId } = await accounts.signIn('player@example.com');
    const body = { email: ' Player@Example.com ', credits: 25, reason: 'Sorry for the outage' };
    const first = await api.inject({ method: 'POST', url: '/api/v1/admin/credits', headers: { ...admin.headers, 'idempotency-key': 'grant-0001' }, payload: body });
    expect([first.statusCode, first.json()]).toEqual([201, { granted: true }]);
    const again = await api.inject({ method: 'POST', url: '/api/v1/admin/credits', headers: { ...admin.headers, 'idempotency-key': 'grant-0001' }, payload: body });
    expect([again.statusCode, again.json()]).toEqual([201, { granted: false }]);
    expect(await ledger.balance(userId)).toBe(25);
    expect(ledger.events.filter((e) => e.userId === userId).map((e) => [e.description, e.actorId])).toEqual([['Sorry for the outage', admin.userId]]);
  });

  it('refuses a grant from a player (403), to an unknown address (404), or with a bad body or key (400)', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const player = await accounts.signIn();
    const grantAs = (headers: Record<string, string>, payload: object) => api.inject({ method: 'POST', url: '/api/v1/admin/credits', headers, payload });
    const valid = { email: 'player@example.com', credits: 5, reason: 'Goodwill' };
    const forbidden = await grantAs(player.headers, valid);
    expect([forbidden.statusCode, errorOf(forbidden).code]).toEqual([403, 'AUTH.ADMIN_REQUIRED']);
    const unknown = await grantAs(admin.headers, { ...valid, email: 'nobody@example.com' });
    expect([unknown.statusCode, errorOf(unknown)]).toEqual([404, { code: 'CREDITS.UNKNOWN_ACCOUNT', errors: ['There is no account with this email address.'] }]);
    for (const payload of [{ ...valid, credits: 0 }, { ...valid, reason: 'x' }, { ...valid, email: 'not an address' }, { ...valid, extra: true }]) {
      const refused = await grantAs(admin.headers, payload);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
    const badKey = await grantAs({ ...admin.headers, 'idempotency-key': 'short' }, valid);
    expect([badKey.statusCode, errorOf(badKey).errors]).toEqual([400, ['Idempotency-Key: 8-100 letters, digits, "_", ".", ":" or "-"']]);
    expect(await ledger.balance(player.userId)).toBe(0);
  });

  it('takes JSON only for the grant: a form post is 415', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const form = await api.inject({ method: 'POST', url: '/api/v1/admin/credits', headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a%40b.c&credits=5' });
    expect([form.statusCode, errorOf(form).code]).toEqual([415, 'REQUEST.JSON_ONLY']);
  });

  describe('with payments off', () => {
    beforeEach(() => {
      env = { HAS_PAYMENT: 'false' };
    });

    it('answers 404 on every credits route, signed in or not', async () => {
      const admin = await accounts.signIn(ADMIN_EMAIL);
      for (const [method, url] of [
        ['GET', '/api/v1/credits'],
        ['GET', '/api/v1/credits/history'],
        ['POST', '/api/v1/admin/credits'],
      ] as const) {
        for (const headers of [{}, admin.headers]) {
          const response = await api.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
          expect([url, response.statusCode, errorOf(response).code]).toEqual([url, 404, 'PAYMENTS.DISABLED']);
        }
      }
    });
  });
});
