import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { CreditRemindersService } from '../../application/credit-reminders.service';
import { ReminderStore } from '../../domain/reminder-store.port';
import { InMemoryCreditLedger } from '../../testing/in-memory-credit-ledger';
import { InMemoryReminderStore } from '../../testing/in-memory-reminder-store';
import { PaymentsEnabledGuard } from './payments-enabled.guard';
import { RemindersController } from './reminders.controller';

const INVALID_LINK = 'This unsubscribe link is not valid. Sign in and change your mail settings on your account page.';
const ONE_CLICK = { 'content-type': 'application/x-www-form-urlencoded' };

describe('RemindersController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let reminders: InMemoryReminderStore;
  let outbox: RecordingMailOutbox;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    reminders = new InMemoryReminderStore(ledger);
    outbox = new RecordingMailOutbox();
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [RemindersController],
    providers: [CreditRemindersService, PaymentsEnabledGuard, { provide: ReminderStore, useValue: reminders }, { provide: MailOutbox, useValue: outbox }, ...accounts.providers()],
    config: testConfig(env),
  }));

  const preferences = (headers: Record<string, string>) => api.inject({ method: 'GET', url: '/api/v1/account/mail-preferences', headers });
  const switchMails = (headers: Record<string, string>, payload: object) => api.inject({ method: 'PUT', url: '/api/v1/account/mail-preferences', headers, payload });
  const unsubscribe = (token: string) => api.inject({ method: 'POST', url: `/api/v1/reminders/unsubscribe?token=${encodeURIComponent(token)}`, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });

  /** The one-click link of the expiry reminder the account gets, as its mail carries it (List-Unsubscribe). */
  async function expiryLinkOf(userId: string): Promise<{ url: string; token: string }> {
    ledger.emailsById.set(userId, 'player@example.com');
    await ledger.grant({ userId, source: 'admin', sourceRef: `soon:${userId}`, credits: 40, validityDays: 2, description: 'Goodwill' });
    await (await api.get(CreditRemindersService)).run();
    const mail = outbox.sent.find((m) => m.to === 'player@example.com' && /expire on/.test(m.subject));
    const url = new URL(mail!.listUnsubscribe!);
    return { url: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
  }

  it('shows both reminder mails on for an account that never switched them, never cached; nobody signed in gets 401', async () => {
    const { headers } = await accounts.signIn();
    const response = await preferences(headers);
    expect([response.statusCode, response.json(), response.headers['cache-control']]).toEqual([200, { low_balance: true, expiry: true }, 'no-store']);
    for (const method of ['GET', 'PUT'] as const) {
      const refused = await api.inject({ method, url: '/api/v1/account/mail-preferences', ...(method === 'PUT' ? { payload: { expiry: false } } : {}) });
      expect([method, refused.statusCode, errorOf(refused).code]).toEqual([method, 401, 'AUTH.SIGN_IN_REQUIRED']);
    }
  });

  it('switches one mail at a time and keeps the other as it was', async () => {
    const { headers, userId } = await accounts.signIn();
    expect((await switchMails(headers, { low_balance: false })).json()).toEqual({ low_balance: false, expiry: true });
    expect((await switchMails(headers, { expiry: false })).json()).toEqual({ low_balance: false, expiry: false });
    expect((await switchMails(headers, { low_balance: true })).json()).toEqual({ low_balance: true, expiry: false });
    expect((await preferences(headers)).json()).toEqual({ low_balance: true, expiry: false });
    expect(await reminders.preferences(userId)).toEqual({ lowBalance: true, expiry: false });
    const other = await accounts.signIn('other@example.com');
    expect((await preferences(other.headers)).json()).toEqual({ low_balance: true, expiry: true });
  });

  it('says what is wrong with a switch (400) and changes nothing', async () => {
    const { headers, userId } = await accounts.signIn();
    for (const [payload, message] of [
      [{}, 'Send low_balance, expiry or both'],
      [{ low_balance: 'no' }, 'low_balance: low_balance is true or false'],
      [{ expiry: false, weekly: false }, 'Unrecognized key: "weekly"'],
    ] as const) {
      const refused = await switchMails(headers, payload);
      expect([refused.statusCode, errorOf(refused).code, errorOf(refused).errors[0]]).toEqual([400, 'REQUEST.INVALID', message]);
    }
    expect(reminders.switches.has(userId)).toBe(false);
  });

  it("unsubscribes with the reminder mail's one-click link, without signing in, from that kind of mail only", async () => {
    const { userId, headers } = await accounts.signIn();
    const { url } = await expiryLinkOf(userId);
    const clicked = await api.inject({ method: 'POST', url, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });
    expect([clicked.statusCode, clicked.json()]).toEqual([200, { unsubscribed: 'expiry' }]);
    expect((await preferences(headers)).json()).toEqual({ low_balance: true, expiry: false });
    // A second click (a provider retrying) answers the same.
    expect((await api.inject({ method: 'POST', url, headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' })).json()).toEqual({ unsubscribed: 'expiry' });
    const json = await api.inject({ method: 'POST', url, payload: {} });
    expect(json.statusCode).toBe(200);
  });

  it("refuses a forged or altered link (400) and switches nothing off, for anybody", async () => {
    const victim = await accounts.signIn('victim@example.com');
    const { userId } = await accounts.signIn();
    const { token } = await expiryLinkOf(userId);
    const [, , signature] = token.split('.');
    for (const forged of [
      `${victim.userId}.expiry.${signature}`,
      token.replace('.expiry.', '.low_balance.'),
      `${victim.userId}.expiry.${'A'.repeat(43)}`,
      `${token}.extra`,
      'nonsense',
    ]) {
      const refused = await unsubscribe(forged);
      expect([forged, refused.statusCode, errorOf(refused)]).toEqual([forged, 400, { code: 'CREDITS.INVALID_UNSUBSCRIBE_LINK', errors: [INVALID_LINK] }]);
    }
    expect([...reminders.switches.keys()]).toEqual([]);
    const missing = await api.inject({ method: 'POST', url: '/api/v1/reminders/unsubscribe', headers: ONE_CLICK, payload: 'List-Unsubscribe=One-Click' });
    expect([missing.statusCode, errorOf(missing)]).toEqual([400, { code: 'REQUEST.INVALID', errors: ['token: The unsubscribe link has no token'] }]);
  });

  it('takes the one-click post as JSON or a form only: text is 415', async () => {
    const { userId } = await accounts.signIn();
    const { url } = await expiryLinkOf(userId);
    const text = await api.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'List-Unsubscribe=One-Click' });
    expect([text.statusCode, errorOf(text).code]).toEqual([415, 'REQUEST.JSON_ONLY']);
    expect(await reminders.preferences(userId)).toEqual({ lowBalance: true, expiry: true });
  });

  it('exports the credit history with running balances, as CSV by default or JSON; a bad time zone is 400', async () => {
    const { headers, userId } = await accounts.signIn();
    await ledger.grant({ userId, source: 'admin', sourceRef: 'goodwill', credits: 10, validityDays: 30, description: 'Goodwill' });
    await ledger.hold({ userId, amount: 3, idempotencyKey: 'spend-3', description: 'Three images' });
    await ledger.capture('spend-3');
    const csv = await api.inject({ method: 'GET', url: '/api/v1/exports/credit-history', headers });
    expect([csv.statusCode, csv.headers['content-type'], csv.headers['cache-control']]).toEqual([200, 'text/csv; charset=utf-8', 'no-store']);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="credit-history-\d{4}-\d\d-\d\d\.csv"$/);
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFDate (UTC),Kind,Lot,Reason,Credits,Balance after');
    const json = await api.inject({ method: 'GET', url: '/api/v1/exports/credit-history?format=json&tz=Europe/Paris', headers });
    expect(json.json()).toMatchObject({
      time_zone: 'Europe/Paris',
      rows: [
        { kind: 'grant', lot: 'Goodwill', reason: 'Goodwill', credits: 10, balance_after: 10 },
        { kind: 'spend', lot: 'Goodwill', reason: 'Three images', credits: -3, balance_after: 7 },
      ],
      totals: { granted: 10, spent: 3, balance: 7 },
    });
    const bad = await api.inject({ method: 'GET', url: '/api/v1/exports/credit-history?tz=Nowhere/Atlantis', headers });
    expect([bad.statusCode, errorOf(bad).code]).toEqual([400, 'REQUEST.INVALID']);
    expect((await api.inject({ method: 'GET', url: '/api/v1/exports/credit-history' })).statusCode).toBe(401);
  });

  describe('with payments off', () => {
    beforeEach(() => {
      env = { HAS_PAYMENT: 'false' };
    });

    it('has no credit history export (404), and the mail switches still work', async () => {
      const { headers } = await accounts.signIn();
      const response = await api.inject({ method: 'GET', url: '/api/v1/exports/credit-history', headers });
      expect([response.statusCode, errorOf(response).code]).toEqual([404, 'PAYMENTS.DISABLED']);
      expect((await preferences(headers)).statusCode).toBe(200);
    });
  });
});
