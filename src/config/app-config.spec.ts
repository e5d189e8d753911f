import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('runs with nothing configured: embedded database, port 3000, login and payment off', () => {
    const config = loadConfig({});
    expect(config.http).toMatchObject({ port: 3000, host: 'localhost', publicUrl: 'http://localhost:3000' });
    expect(config.database).toMatchObject({ kind: 'embedded', migrateOnStart: true });
    expect(config.database.kind === 'embedded' && config.database.dataDir).toMatch(/var[/\\]pglite$/);
    expect(config.redis.url).toBeUndefined();
    expect(config.public.settings).toEqual({
      has_login: false,
      email_login: true,
      google_oauth_login: false,
      has_payment: false,
    });
    expect(config.public.levels).toEqual({ searchMax: 635, searchableMax: 231, claimed: 1000 });
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
      TRIAL_CREDITS: '25',
      SITE_NAME: 'Door Help',
      PUBLIC_URL: 'https://example.test/',
      SOCIAL_DISCORD_URL: 'https://discord.example/x',
      SOCIAL_X_URL: '',
    });
    expect(config.public.settings.has_login).toBe(true);
    expect(config.public.settings.has_payment).toBe(true);
    expect(config.public.siteName).toBe('Door Help');
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
    ['GOOGLE_OAUTH_LOGIN', 'true'],
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
    expect(loadConfig({}).http.limits).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, idleTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 2048 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});
