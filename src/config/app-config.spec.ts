import { availableParallelism } from 'node:os';
import { ConfigError, imageStoreProblem, imageThreads, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('runs the whole product with nothing configured (the local try-out): embedded database, port 3000, accounts and test payments on', () => {
    const config = loadConfig({});
    expect(config.local).toBe(true);
    expect(config.env).toBe('production');
    expect(config.http).toMatchObject({ port: 3000, host: 'localhost', publicUrl: 'http://localhost:3000' });
    expect(config.database).toMatchObject({ kind: 'embedded', migrateOnStart: true });
    expect(config.database.kind === 'embedded' && config.database.dataDir).toMatch(/var[/\\]pglite$/);
    expect(config.redis.url).toBeUndefined();
    expect(config.public.settings).toEqual({
      has_login: true,
      email_login: true,
      google_oauth_login: false,
      has_payment: true,
    });
    expect(config.public).toMatchObject({ trialCredits: 10, testPayments: true });
    expect(config.auth.firstAccountIsAdmin).toBe(true);
    expect(config.warnings).toEqual([]);
    expect(config.public.levels).toEqual({ searchMax: 635, searchableMax: 231, claimed: 1000 });
    // Explicit settings still win.
    expect(loadConfig({ HAS_PAYMENT: 'false' }).public.settings).toMatchObject({ has_login: true, has_payment: false });
  });

  it.each([
    ['NODE_ENV', 'production'],
    ['NODE_ENV', 'development'],
    ['DATABASE_URL', 'postgres://app@db:5432/site'],
    ['PUBLIC_URL', 'https://guides.example'],
    ['HOST', '0.0.0.0'],
  ])('leaves the local try-out when %s is set: accounts and payments off by default, no admin by order', (name, value) => {
    const config = loadConfig({ [name]: value });
    expect(config.local).toBe(false);
    expect(config.public.settings).toMatchObject({ has_login: false, has_payment: false });
    expect(config.auth.firstAccountIsAdmin).toBe(false);
  });

  it('takes writes from every loopback name of the try-out\'s port, and from PUBLIC_URL alone once it is set', () => {
    expect(loadConfig({ PORT: '3100' }).http.origins).toEqual(['http://localhost:3100', 'http://127.0.0.1:3100', 'http://[::1]:3100']);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000/' }).http.origins).toEqual(['http://localhost:3000']);
    expect(loadConfig({ PUBLIC_URL: 'https://guides.example' }).http.origins).toEqual(['https://guides.example']);
    expect(loadConfig({ NODE_ENV: 'development' }).http.origins).toEqual(['http://localhost:3000']);
  });

  it('refuses payments without Stripe in production unless test payments are switched on explicitly', () => {
    const production = { NODE_ENV: 'production', HAS_LOGIN: 'true', HAS_PAYMENT: 'true' };
    expect(() => loadConfig(production)).toThrow(/HAS_PAYMENT: is on with NODE_ENV=production but STRIPE_SECRET_KEY is not set.*TEST_PAYMENTS=true/);
    // DATABASE_URL without NODE_ENV is production too (its default).
    expect(() => loadConfig({ DATABASE_URL: 'postgres://app@db/site', HAS_LOGIN: 'true', HAS_PAYMENT: 'true' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(loadConfig({ ...production, TEST_PAYMENTS: 'true' }).public.testPayments).toBe(true);
    const stripe = loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(stripe.public).toMatchObject({ testPayments: false, settings: { has_payment: true } });
    // Development and the test suite take test payments unless told otherwise.
    expect(loadConfig({ ...production, NODE_ENV: 'test' }).public.testPayments).toBe(true);
    expect(() => loadConfig({ ...production, NODE_ENV: 'test', TEST_PAYMENTS: 'false' })).not.toThrow();
  });

  it('names the settings that do not fit together, each once, and leaves what they switch off', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      HAS_PAYMENT: 'true',
      GOOGLE_OAUTH_LOGIN: 'true',
      ADMIN_EMAILS: 'ops@example.com',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      S3_BUCKET: 'images',
    });
    expect(config.public.settings).toMatchObject({ has_login: false, has_payment: false, google_oauth_login: false });
    expect(config.warnings).toEqual([
      'HAS_PAYMENT=true without HAS_LOGIN=true: credits belong to accounts, so payments stay off',
      'GOOGLE_OAUTH_LOGIN=true without HAS_LOGIN=true: Google sign-in stays off',
      'ADMIN_EMAILS without HAS_LOGIN=true: admins cannot sign in, the admin screens stay hidden',
      'STRIPE_SECRET_KEY is set but payments are off (HAS_PAYMENT and HAS_LOGIN): it is not used',
      'S3_BUCKET or S3_ENDPOINT without IMAGE_STORE=s3: images are kept in files under DATA_DIR',
    ]);
    const google = loadConfig({ NODE_ENV: 'test', HAS_LOGIN: 'true', GOOGLE_OAUTH_LOGIN: 'true', EMAIL_LOGIN: 'false' });
    expect(google.warnings).toEqual([
      'GOOGLE_OAUTH_LOGIN=true without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: Google sign-in stays off',
      'HAS_LOGIN=true with EMAIL_LOGIN=false and no Google sign-in: nobody can sign in',
    ]);
    expect(google.auth.google).toBeUndefined();
  });

  it('reads the seller, the refund rule and the reminders, and names a live site without a seller address', () => {
    const live = { NODE_ENV: 'production', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const bare = loadConfig(live);
    expect(bare.payments).toMatchObject({ seller: { name: 'Mystery Doors Guide', address: [] }, refundRule: { windowDays: 14, maxUsedPercent: 10 }, reminders: { lowBalanceCredits: 3, expiryDays: 7 } });
    expect(bare.warnings).toEqual(['STRIPE_SECRET_KEY without SELLER_ADDRESS: receipts of real payments name no seller address']);
    const set = loadConfig({ ...live, SELLER_NAME: 'Doors Ltd', SELLER_ADDRESS: '1 Lane;  City ; ', REFUND_WINDOW_DAYS: '0', REMINDER_LOW_BALANCE_CREDITS: '0' });
    expect(set.payments).toMatchObject({ seller: { name: 'Doors Ltd', address: ['1 Lane', 'City'] }, refundRule: { windowDays: 0 }, reminders: { lowBalanceCredits: 0 } });
    expect(set.warnings).toEqual([]);
    expect(() => loadConfig({ ...live, REFUND_MAX_USED_PERCENT: '101' })).toThrow(/REFUND_MAX_USED_PERCENT/);
  });

  it('uses PostgreSQL when DATABASE_URL is set, migrating at start in every NODE_ENV unless MIGRATE_ON_START=false', () => {
    const url = 'postgres://app@db:5432/site';
    expect(loadConfig({ DATABASE_URL: url, NODE_ENV: 'development' }).database).toEqual({
      kind: 'postgres',
      url,
      migrateOnStart: true,
    });
    // NODE_ENV defaults to production: a newcomer's `DATABASE_URL=... npm start` must migrate.
    expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({ migrateOnStart: true });
    expect(loadConfig({ DATABASE_URL: url, NODE_ENV: 'production' }).database).toMatchObject({ migrateOnStart: true });
    expect(loadConfig({ DATABASE_URL: url, MIGRATE_ON_START: 'false' }).database).toMatchObject({ migrateOnStart: false });
  });

  it('leaves the log format to the terminal unless LOG_FORMAT is set', () => {
    expect(loadConfig({}).log).toEqual({ level: 'info', format: undefined });
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).log.format).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: '' }).log.format).toBeUndefined();
  });

  it('reads the public settings and site identity', () => {
    const config = loadConfig({
      HAS_LOGIN: 'true',
      HAS_PAYMENT: '1',
      TEST_PAYMENTS: 'true',
      TRIAL_CREDITS: '25',
      SITE_NAME: 'Door Help',
      PUBLIC_URL: 'https://example.test/',
      SOCIAL_DISCORD_URL: 'https://discord.example/x',
      SOCIAL_X_URL: '',
    });
    expect(config.public.settings.has_login).toBe(true);
    expect(config.public.settings.has_payment).toBe(true);
    expect(config.public.siteName).toBe('Door Help');
    // The installed app's short name is the site's name unless SITE_SHORT_NAME says otherwise.
    expect(config.webApp.shortName).toBe('Door Help');
    expect(loadConfig({ SITE_SHORT_NAME: 'Doors' }).webApp.shortName).toBe('Doors');
    expect(config.public.siteUrl).toBe('https://example.test');
    expect(config.public.social).toMatchObject({ discord: 'https://discord.example/x', x: undefined });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['HAS_LOGIN', 'maybe'],
    ['DATABASE_URL', 'mysql://db/site'],
    ['REDIS_URL', 'http://cache'],
    ['APP_STORE_URL', 'javascript:alert(1)'],
    ['AUTH_SECRET', 'short'],
    ['ADMIN_EMAILS', 'ops@example.com,not-an-email'],
    ['SMTP_URL', 'http://mail'],
    ['METRICS_TOKEN', 'too-short'],
    ['WORKER_METRICS_PORT', '70000'],
    ['LEVEL_SEARCH_MAX', '-3'],
    ['NODE_ENV', 'staging'],
    ['MENU_ENTRIES', 'blog,casino'],
    ['LOG_FORMAT', 'yaml'],
    ['REDIRECTS', '{not json'],
    ['FOOTER_LINK_GROUPS', '{"Casinos": [["x", "/x"]]}'],
    ['FOOTER_LINK_GROUPS', '{"Friends": [["x", "javascript:alert(1)"]]}'],
    ['REDIRECTS', '{"no-slash": "/x"}'],
    ['REDIRECTS', '{"/x": "javascript:alert(1)"}'],
  ])('refuses a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  - ${name}: `));
  });

  it('refuses a file image store that workers cannot read, unless it is said to be shared or the images go to S3', () => {
    const base = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://x@127.0.0.1/db', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' };
    expect(imageStoreProblem(loadConfig(base))).toMatch(/^IMAGE_STORE=file with REDIS_URL: the workers convert the images.*IMAGE_STORE_SHARED=true/);
    expect(imageStoreProblem(loadConfig({ ...base, IMAGE_STORE_SHARED: 'true' }))).toBeNull();
    expect(imageStoreProblem(loadConfig({ ...base, IMAGE_STORE: 's3', S3_BUCKET: 'images' }))).toBeNull();
    // No workers (the web process converts), or no image tool (payments off): nothing to share.
    expect(imageStoreProblem(loadConfig({ ...base, REDIS_URL: '' }))).toBeNull();
    expect(imageStoreProblem(loadConfig({ ...base, HAS_PAYMENT: 'false' }))).toBeNull();
  });

  it('reads the metrics token and the worker metrics port, both unset by default', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, workerPort: undefined });
    expect(loadConfig({ METRICS_TOKEN: '', WORKER_METRICS_PORT: '' }).metrics).toEqual({ token: undefined, workerPort: undefined });
    expect(loadConfig({ METRICS_TOKEN: 'a-token-of-16+chars', WORKER_METRICS_PORT: '9464' }).metrics).toEqual({ token: 'a-token-of-16+chars', workerPort: 9464 });
  });

  it('reads redirect rules, empty by default', () => {
    expect(loadConfig({}).redirects.size).toBe(0);
    expect([...loadConfig({ REDIRECTS: '{"/old": "/levels", "/x": "https://example.com/"}' }).redirects]).toEqual([
      ['/old', '/levels'],
      ['/x', 'https://example.com/'],
    ]);
  });

  it('hides the optional menu entries unless configured', () => {
    expect(loadConfig({}).public.menu).toEqual({ download: false, faq: false, media: false, blog: false });
    expect(loadConfig({ MENU_ENTRIES: 'blog, faq' }).public.menu).toEqual({ download: false, faq: true, media: false, blog: true });
  });

  it('never exposes server-only settings in the public part', () => {
    const config = loadConfig({
      AUTH_SECRET: 'x'.repeat(32),
      GOOGLE_OAUTH_LOGIN: 'true',
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'yyyy-google-secret',
      SMTP_URL: 'smtp://user:smtp-secret@mail',
      DATABASE_URL: 'postgres://u:secret@db/site',
    });
    expect(JSON.stringify(config.public)).not.toMatch(/secret|xxxx|yyyy/);
  });
  it('trusts X-Forwarded-For from no one by default, from a hop count or from listed proxies; true is one hop', () => {
    expect(loadConfig({}).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback, ::1' }).http.trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY.*hop count/);
    }
  });
  it('reads the HTTP limits, refusing a headers timeout longer than the request timeout', () => {
    expect(loadConfig({}).http.limits).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, idleTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 2048, maxConnectionsPerClient: 64 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
  it('runs an upscale on every CPU where a worker runs the jobs, one fewer in a web process without Redis, or IMAGE_THREADS', () => {
    expect(imageThreads({ cpus: 8, jobsInWebProcess: false })).toBe(8);
    expect(imageThreads({ cpus: 8, jobsInWebProcess: true })).toBe(7);
    expect(imageThreads({ cpus: 1, jobsInWebProcess: true })).toBe(1);
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).images.threads).toBe(availableParallelism());
    expect(loadConfig({}).images.threads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ IMAGE_THREADS: '3' }).images.threads).toBe(3);
    expect(loadConfig({ IMAGE_THREADS: '' }).images.threads).toBe(Math.max(1, availableParallelism() - 1));
    for (const bad of ['0', '65', '1.5', 'all']) expect(() => loadConfig({ IMAGE_THREADS: bad })).toThrow(/IMAGE_THREADS/);
  });
});
