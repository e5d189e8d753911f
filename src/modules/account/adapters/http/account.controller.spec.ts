import { randomUUID } from 'node:crypto';
import { DEFAULT_IMAGE_OPTIONS } from 'src/contracts/images';
import { KEPT_AFTER_DELETION } from 'src/contracts/account-export';
import { authServiceProviders } from 'src/modules/auth/testing/auth-test-bed';
import { FakePasswordHasher } from 'src/modules/auth/testing/fake-password-hasher';
import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { InMemoryOrderRepository } from 'src/modules/billing/testing/in-memory-order-repository';
import { CreditLedger, CreditRemindersService, ReminderStore } from 'src/modules/credits';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { InMemoryReminderStore } from 'src/modules/credits/testing/in-memory-reminder-store';
import { ImageCodec, ImageJobRepository, ImageStore, ImageToolService, type ImageJobStatus } from 'src/modules/image-tool';
import { allJobFileKeys } from 'src/modules/image-tool/domain/image-job';
import { FakeImageCodec } from 'src/modules/image-tool/testing/fake-image-codec';
import { InMemoryImageJobRepository } from 'src/modules/image-tool/testing/in-memory-image-job-repository';
import { InMemoryImageStore } from 'src/modules/image-tool/testing/in-memory-image-store';
import { InMemoryAccountProgressRepository } from 'src/modules/progress/testing/in-memory-account-progress-repository';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import { AccountService } from '../../application/account.service';
import { AccountRecords } from '../../domain/account-records.port';
import { InMemoryAccountRecords } from '../../testing/in-memory-account-records';
import { AccountController } from './account.controller';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple battery horse';
const REAUTH = 'Enter your current password, or sign in again with an emailed sign-in link and try again within 15 minutes.';
const hasher = new FakePasswordHasher();

describe('AccountController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let reminders: InMemoryReminderStore;
  let orders: InMemoryOrderRepository;
  let jobs: InMemoryImageJobRepository;
  let store: InMemoryImageStore;
  let progress: InMemoryAccountProgressRepository;
  let outbox: RecordingMailOutbox;
  let queue: RecordingJobQueue;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    reminders = new InMemoryReminderStore(ledger);
    orders = new InMemoryOrderRepository({ ledger });
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    progress = new InMemoryAccountProgressRepository();
    outbox = new RecordingMailOutbox();
    queue = new RecordingJobQueue();
  });
  const api = useControllers(() => ({
    controllers: [AccountController],
    providers: [
      AccountService,
      CreditRemindersService,
      ImageToolService,
      LiveWorkers,
      { provide: AccountRecords, useValue: new InMemoryAccountRecords({ users: accounts.users, sessions: accounts.sessions, progress, ledger, reminders, orders, jobs, outbox }) },
      { provide: ReminderStore, useValue: reminders },
      { provide: CreditLedger, useValue: ledger },
      { provide: ImageJobRepository, useValue: jobs },
      { provide: ImageStore, useValue: store },
      { provide: ImageCodec, useValue: new FakeImageCodec() },
      ...authServiceProviders({ outbox, queue }),
      ...accounts.providers(),
    ],
    config: testConfig({ SITE_NAME: 'Door Help' }),
  }));

  /** A signed-in account with PASSWORD. */
  async function withPassword(email = 'player@example.com') {
    const signedIn = await accounts.signIn(email);
    accounts.users.row(email).passwordHash = await hasher.hash(PASSWORD);
    return signedIn;
  }
  /** Makes the session of `token` older than the 15 minutes that prove its owner without a password. */
  const age = (token: string) => void (accounts.sessions.row(token).createdAt = new Date(Date.now() - 16 * 60_000));
  async function imageJob(userId: string, status: ImageJobStatus) {
    const job = await jobs.create({ id: randomUUID(), userId, conversion: 'sketch', source: 'upload', sourceUrl: null, options: DEFAULT_IMAGE_OPTIONS, inputSha256: null, plannedMegapixels: null, queuePriority: 1 });
    jobs.rows.find((row) => row.id === job.id)!.status = status;
    for (const key of allJobFileKeys(job.id)) await store.put(key, Buffer.from('img'), 'image/png');
    return job;
  }
  const account = (headers: Record<string, string>) => api.inject({ method: 'GET', url: '/api/v1/account', headers });
  const changePassword = (headers: Record<string, string>, payload: object) => api.inject({ method: 'PUT', url: '/api/v1/account/password', headers, payload });
  const deleteAccount = (headers: Record<string, string>, payload?: object) => api.inject({ method: 'DELETE', url: '/api/v1/account', headers, ...(payload ? { payload } : {}) });

  it("shows the account's address, sign-in methods and when this session signed in, never cached", async () => {
    const { headers, token } = await withPassword();
    const response = await account(headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      email: 'player@example.com',
      created_at: expect.any(String),
      sign_in_methods: { password: true, google: false },
      signed_in_at: accounts.sessions.row(token).createdAt.toISOString(),
      kept_after_deletion: KEPT_AFTER_DELETION,
    });
  });

  it('wants a live session on every route', async () => {
    const { headers } = await withPassword();
    for (const [method, url] of [
      ['GET', '/api/v1/account'],
      ['PUT', '/api/v1/account/password'],
      ['GET', '/api/v1/account/export'],
      ['DELETE', '/api/v1/account'],
    ] as const) {
      const response = await api.inject({ method, url, ...(method === 'PUT' ? { payload: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } } : {}) });
      expect([url, response.statusCode, errorOf(response).code]).toEqual([url, 401, 'AUTH.SIGN_IN_REQUIRED']);
    }
    expect((await account(headers)).statusCode).toBe(200);
  });

  describe('a new password', () => {
    it('is set with the current one; every other session ends, this one stays', async () => {
      const { headers, userId } = await withPassword();
      const other = await accounts.signIn();
      const response = await changePassword(headers, { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
      expect(response.statusCode).toBe(204);
      expect(await hasher.verify(accounts.users.row('player@example.com').passwordHash!, NEW_PASSWORD)).toBe(true);
      expect((await account(other.headers)).statusCode).toBe(401);
      expect((await account(headers)).statusCode).toBe(200);
      expect(accounts.sessions.ofUser(userId).filter((s) => s.revokedAt === null)).toHaveLength(1);
    });

    it('is set without the current one within 15 minutes of a sign-in (an emailed link), not later', async () => {
      const { headers, token } = await accounts.signIn();
      expect((await changePassword(headers, { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })).statusCode).toBe(204);
      age(token);
      const stale = await changePassword(headers, { current_password: '', password: PASSWORD, password_confirmation: PASSWORD });
      expect([stale.statusCode, errorOf(stale)]).toEqual([403, { code: 'AUTH.REAUTHENTICATION_REQUIRED', errors: [REAUTH] }]);
      expect(await hasher.verify(accounts.users.row('player@example.com').passwordHash!, NEW_PASSWORD)).toBe(true);
    });

    it('is refused with a wrong current password, and after three wrong ones in an hour with 429', async () => {
      const { headers } = await withPassword();
      const wrong = () => changePassword(headers, { current_password: 'not my password', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
      for (let i = 0; i < 3; i++) {
        const refused = await wrong();
        expect([refused.statusCode, errorOf(refused)]).toEqual([403, { code: 'AUTH.REAUTHENTICATION_REQUIRED', errors: [REAUTH] }]);
      }
      const limited = await wrong();
      expect([limited.statusCode, errorOf(limited).code]).toEqual([429, 'AUTH.TOO_MANY_ATTEMPTS']);
      expect(await hasher.verify(accounts.users.row('player@example.com').passwordHash!, PASSWORD)).toBe(true);
    });

    it('says what is wrong with the new password (400)', async () => {
      const { headers } = await withPassword();
      for (const [payload, message] of [
        [{ current_password: PASSWORD, password: 'short', password_confirmation: 'short' }, 'password: Password must be at least 8 characters'],
        [{ current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: 'something else' }, 'password_confirmation: Passwords do not match'],
        [{ current_password: PASSWORD }, 'password: Password is required'],
        // Like the account's other bodies: a field it does not take is refused, not ignored.
        [{ current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD, email: 'new@example.com' }, 'Unrecognized key: "email"'],
      ] as const) {
        const refused = await changePassword(headers, payload);
        expect([refused.statusCode, errorOf(refused).code, errorOf(refused).errors[0]]).toEqual([400, 'REQUEST.INVALID', message]);
      }
      expect(await hasher.verify(accounts.users.row('player@example.com').passwordHash!, PASSWORD)).toBe(true);
    });
  });

  it("downloads the account's data as a JSON file: its own records only, its mail switches, no secret", async () => {
    const { headers, userId, token } = await withPassword();
    const stranger = await accounts.signIn('stranger@example.com');
    await ledger.grant({ userId, source: 'admin', sourceRef: 'goodwill-1', credits: 5, validityDays: 30, description: 'Goodwill' });
    await ledger.grant({ userId: stranger.userId, source: 'admin', sourceRef: 'goodwill-2', credits: 7, validityDays: 30, description: 'Not yours' });
    const order = await orders.create({ userId, kind: 'pack', packId: 'starter', description: 'Starter pack', credits: 100, validityDays: 365, amountCents: 299, gateway: 'local' });
    const job = await imageJob(userId, 'succeeded');
    await reminders.setPreferences(userId, { lowBalance: false });
    await reminders.claim(userId, 'expiry', 'lot-1');
    progress.rows.set(userId, { levels: { 12: { state: 'solved', at: Date.parse('2026-05-01T10:00:00Z') } }, clearedAt: null, revision: 1, changedIn: { 12: 1 } });

    const response = await api.inject({ method: 'GET', url: '/api/v1/account/export', headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/);
    const data = response.json();
    expect(data).toMatchObject({
      account: { email: 'player@example.com', sign_in_methods: { password: true, google: false } },
      mail_preferences: { low_balance: false, expiry: true },
      progress: [{ level: 12, state: 'solved', changed_at: '2026-05-01T10:00:00.000Z' }],
      credits: { lots: [{ source: 'admin', description: 'Goodwill', granted: 5, remaining: 5 }], history: [{ kind: 'grant', credits: 5, description: 'Goodwill' }] },
      orders: [{ number: order.number, description: 'Starter pack', amount_cents: 299, refunds: [] }],
      image_jobs: [{ id: job.id, status: 'succeeded', files: [`/api/v1/images/${job.id}/preview`, `/api/v1/images/${job.id}/result`, `/api/v1/images/${job.id}/thumbnail`] }],
      reminders_sent: [{ kind: 'expiry' }],
      kept_after_deletion: KEPT_AFTER_DELETION,
    });
    expect(data.sessions).toHaveLength(1);
    expect(data.credits.lots).toHaveLength(1);
    for (const secret of [token, accounts.sessions.row(token).tokenHash, accounts.users.row('player@example.com').passwordHash!]) expect(response.body).not.toContain(secret);
  });

  describe('deletion', () => {
    it('with the password: the account, its sessions, credits and files go, orders stay without it, a confirmation is mailed', async () => {
      const { headers, userId } = await withPassword();
      const stranger = await withPassword('stranger@example.com');
      await ledger.grant({ userId, source: 'admin', sourceRef: 'goodwill-1', credits: 5, validityDays: 30, description: 'Goodwill' });
      await ledger.grantTrial({ userId, source: 'trial', sourceRef: `trial:${userId}`, credits: 10, validityDays: 30, description: 'Free trial' }, 'player@example.com');
      const order = await orders.create({ userId, kind: 'pack', packId: 'starter', description: 'Starter pack', credits: 100, validityDays: 365, amountCents: 299, gateway: 'local' });
      const job = await imageJob(userId, 'succeeded');
      const strangersJob = await imageJob(stranger.userId, 'succeeded');
      await outbox.send({ to: 'player@example.com', subject: 'A reminder still waiting', text: 'Waiting.', html: '<p>Waiting.</p>' });

      const response = await deleteAccount(headers, { password: PASSWORD });
      expect([response.statusCode, response.json()]).toEqual([200, { deleted: true, kept: KEPT_AFTER_DELETION }]);
      expect((await account(headers)).statusCode).toBe(401);
      expect(accounts.users.rows.has(userId)).toBe(false);
      expect(await ledger.balance(userId)).toBe(0);
      expect(allJobFileKeys(job.id).filter((key) => store.files.has(key))).toEqual([]);
      // Kept by law under a random id; the trial stays spent for the address.
      expect(orders.rows.map((o) => o.id)).toEqual([order.id]);
      expect(orders.rows[0]!.userId).not.toBe(userId);
      expect([...ledger.trialClaims.values()]).toEqual([{ address: 'player@example.com', granted: true }]);
      expect(outbox.sent.filter((m) => m.to === 'player@example.com').map((m) => m.subject)).toEqual(['Your Door Help account is deleted']);
      // Nobody else's account is touched.
      expect((await account(stranger.headers)).statusCode).toBe(200);
      expect(allJobFileKeys(strangersJob.id).every((key) => store.files.has(key))).toBe(true);
    });

    it('without the password only within 15 minutes of a sign-in', async () => {
      const stale = await withPassword('stale@example.com');
      age(stale.token);
      for (const payload of [undefined, {}, { password: '' }]) {
        const refused = await deleteAccount(stale.headers, payload);
        expect([refused.statusCode, errorOf(refused)]).toEqual([403, { code: 'AUTH.REAUTHENTICATION_REQUIRED', errors: [REAUTH] }]);
      }
      expect((await account(stale.headers)).statusCode).toBe(200);
      const fresh = await accounts.signIn('fresh@example.com');
      expect((await deleteAccount(fresh.headers)).statusCode).toBe(200);
      expect(accounts.users.rows.has(fresh.userId)).toBe(false);
    });

    it('is refused with a wrong password, and keeps the account', async () => {
      const { headers, userId } = await withPassword();
      const refused = await deleteAccount(headers, { password: 'not my password' });
      expect([refused.statusCode, errorOf(refused)]).toEqual([403, { code: 'AUTH.REAUTHENTICATION_REQUIRED', errors: [REAUTH] }]);
      expect(accounts.users.rows.has(userId)).toBe(true);
      expect(outbox.sent).toEqual([]);
    });

    it('is refused while an image job converts (409), and works once it has finished', async () => {
      const { headers, userId } = await withPassword();
      const job = await imageJob(userId, 'running');
      const refused = await deleteAccount(headers, { password: PASSWORD });
      expect([refused.statusCode, errorOf(refused)]).toEqual([
        409,
        { code: 'ACCOUNT.IMAGE_JOB_RUNNING', errors: ['An image job of yours is still converting. Wait until it finishes, then delete your account.'] },
      ]);
      await imageJob(userId, 'queued');
      expect(errorOf(await deleteAccount(headers, { password: PASSWORD })).errors).toEqual(['2 image jobs of yours are still converting. Wait until they finish, then delete your account.']);
      expect(accounts.users.rows.has(userId)).toBe(true);
      expect(store.files.size).toBeGreaterThan(0);
      for (const row of jobs.rows) row.status = 'failed';
      expect((await deleteAccount(headers, { password: PASSWORD })).statusCode).toBe(200);
      expect(allJobFileKeys(job.id).filter((key) => store.files.has(key))).toEqual([]);
    });

    it('refuses a body that is not {password} (400) or not JSON (415)', async () => {
      const { headers, userId } = await withPassword();
      for (const payload of [{ password: 12345678 }, { password: PASSWORD, confirm: true }]) {
        const refused = await deleteAccount(headers, payload);
        expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
      }
      const text = await api.inject({ method: 'DELETE', url: '/api/v1/account', headers: { ...headers, 'content-type': 'text/plain' }, payload: PASSWORD });
      expect([text.statusCode, errorOf(text).code]).toEqual([415, 'REQUEST.JSON_ONLY']);
      expect(accounts.users.rows.has(userId)).toBe(true);
    });
  });
});
