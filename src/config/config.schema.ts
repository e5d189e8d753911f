import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/** Every environment variable the app reads, with its default. docs/configuration.md's table mirrors this. */
const optionalUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .optional()
  .or(z.literal('').transform(() => undefined));

const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

const flag = (fallback: boolean) => z.stringbool().default(fallback);
/** A switch whose default depends on other settings (resolved in resolveSwitches). */
const emptyIsUnset = (value: unknown) => (value === '' ? undefined : value);
const optionalFlag = z.preprocess(emptyIsUnset, z.stringbool().optional());

/** A variable holding JSON (default `{}`), parsed, then checked by `schema`. */
const jsonVariable = <S extends z.ZodType>(schema: S, expected: string) =>
  z
    .string()
    .default('{}')
    .transform((value, ctx) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be ${expected}` });
        return z.NEVER;
      }
    })
    .pipe(schema);

const port = z.coerce.number().int().min(0).max(65535);

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/**
 * Whose X-Forwarded-For to believe: `false` (none), a hop count (`1`: the one proxy in front), or
 * the proxies' addresses/CIDRs (and loopback, linklocal, uniquelocal). `true` means 1 hop: trusting
 * every hop would let any client choose its own IP.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): false | number | string[] => {
    const lower = value.toLowerCase();
    if (lower === '' || lower === 'false' || lower === '0') return false;
    if (lower === 'true') return 1;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 10) return hops;
    }
    const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
    const bad = entries.filter((entry) => {
      if (PROXY_RANGE_NAMES.has(entry)) return false;
      const [address, bits, ...rest] = entry.split('/');
      const family = isIP(address ?? '');
      if (!family || rest.length) return true;
      return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
    });
    if (entries.length && !bad.length && entries.length <= 50) return entries;
    ctx.addIssue({ code: 'custom', message: 'must be false, a hop count (1 to 10), or a comma-separated list of proxy addresses or CIDRs' });
    return z.NEVER;
  });

export const envSchema = z.object({
  // Unset means production for the runtime; whether it was set at all decides the local try-out (see localTryOut).
  NODE_ENV: z.preprocess(emptyIsUnset, z.enum(['development', 'production', 'test']).optional()),
  PORT: port.default(3000),
  HOST: z.string().min(1).max(255).default('localhost'),
  PUBLIC_URL: optionalUrl,
  TRUST_PROXY: trustProxy,
  // Slow and idle clients (see docs/design.md, Security): milliseconds, and open connections at once.
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2048),
  // Open connections from one client address (the socket's; behind TRUST_PROXY also the forwarded one, per request).
  HTTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(64),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: pretty on a terminal in development, JSON otherwise (see chooseLogFormat).
  LOG_FORMAT: z.enum(['json', 'pretty']).optional().or(z.literal('').transform(() => undefined)),

  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().min(1).default('var'),
  CONTENT_DIR: z.string().min(1).default('content'),
  CONTENT_IMPORT_ON_START: z.stringbool().default(true),
  PAGE_CACHE: z.stringbool().default(true),
  // URLs per sitemap file before /sitemap.xml becomes an index of parts (sitemaps.org allows 50,000).
  SITEMAP_MAX_URLS: z.coerce.number().int().min(1).max(50_000).default(50_000),
  // How long another process's content import can go unseen by this one's page cache.
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // How often each web process adds the guide views it counted in memory to guide_views.
  GUIDE_REPORT_DIGEST_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(15),
  GUIDE_VIEWS_FLUSH_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  // Off for deployments that run `npm run migrate` as a step of their own.
  MIGRATE_ON_START: flag(true),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,32}$/, 'letters, digits, ":", "_" and "-" only (at most 32)')
    .default('guides:'),

  // Menu entries hidden by default (spec): a comma-separated list of those to show.
  MENU_ENTRIES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((e) => e.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['download', 'faq', 'media', 'blog'], { error: 'entries are download, faq, media and blog' }))),

  // Old paths that moved, as JSON: {"/old-path": "/new-path", "/gone": "https://elsewhere.example/"}.
  REDIRECTS: jsonVariable(
    z.record(
      z.string().regex(/^\/[^?#\s]*$/, 'keys must be paths starting with /'),
      z.string().regex(/^(\/[^\s]*|https?:\/\/[^\s]+)$/, 'targets must be paths or http(s) URLs'),
    ),
    'a JSON object of "/path": "target"',
  ),

  // Footer link groups named in the spec's copy, as JSON: {"Hot levels": [["Level 27", "/levels/27"]], "Friends": [...]}.
  FOOTER_LINK_GROUPS: jsonVariable(
    z.partialRecord(
      z.enum(['Hot levels', 'Products', 'Friends', 'Resources'], { error: 'groups are "Hot levels", "Products", "Friends" and "Resources"' }),
      z.array(z.tuple([z.string().min(1).max(60), z.string().regex(/^(\/[^\s]*|https?:\/\/[^\s]+)$/, 'links must be paths or http(s) URLs')])).max(12),
    ),
    'a JSON object of group name to [label, url] pairs',
  ),

  // Unset: on in the local try-out (the whole product), off anywhere else.
  HAS_LOGIN: optionalFlag,
  EMAIL_LOGIN: flag(true),
  GOOGLE_OAUTH_LOGIN: flag(false),
  HAS_PAYMENT: optionalFlag,
  // The local test checkout (no money, credits for free) when no Stripe key is set. Unset: allowed
  // in the local try-out, development and tests; production must switch it on explicitly.
  TEST_PAYMENTS: optionalFlag,

  SITE_NAME: z.string().trim().min(1).max(60).default('Mystery Doors Guide'),
  GAME_NAME: z.string().trim().min(1).max(60).default('Mystery Doors'),
  /** The installed app's name under its icon (the web manifest's short_name); SITE_NAME when unset. */
  SITE_SHORT_NAME: optionalText(30),
  APP_STORE_URL: optionalUrl,
  PLAY_STORE_URL: optionalUrl,
  SOCIAL_EMAIL: z.email().max(256).optional().or(z.literal('').transform(() => undefined)),
  SOCIAL_X_URL: optionalUrl,
  SOCIAL_DISCORD_URL: optionalUrl,
  SOCIAL_GITHUB_URL: optionalUrl,
  SOCIAL_COFFEE_URL: optionalUrl,
  SOCIAL_TWITCH_URL: optionalUrl,
  ANALYTICS_ID: optionalText(64).pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
      .optional(),
  ),

  LEVEL_SEARCH_MAX: z.coerce.number().int().min(1).max(100_000).default(635),
  LEVELS_SEARCHABLE_MAX: z.coerce.number().int().min(1).max(100_000).default(231),
  LEVELS_CLAIMED: z.coerce.number().int().min(1).max(1_000_000).default(1000),


  // Mail: SMTP when set, else messages are written under DATA_DIR/mail and their links logged.
  SMTP_URL: z
    .url({ protocol: /^smtps?$/ })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: optionalText(256),
  // How long the mailer waits (RFC 5321 4.5.3.2: 5 min for the greeting, 10 min for the reply to the
  // end of DATA): giving up sooner on a slow server that accepts the message sends it again.
  SMTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  SMTP_GREETING_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(300_000),
  SMTP_SOCKET_TIMEOUT_MS: z.coerce.number().int().min(100).max(1_800_000).default(600_000),
  // Attempts per outbox message in all, across every round the relay starts; then it gives up.
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(16),
  // Jobs: run by `npm run worker` when REDIS_URL is set, else in the web process.
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  // A job that finds the database unreachable runs again after this long, the attempt not counted.
  JOB_DATABASE_RETRY_MS: z.coerce.number().int().min(100).max(300_000).default(5_000),
  // The first retry's delay of every job (doubling after), instead of each job's own (5 s): for tests.
  JOB_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(300_000).optional(),

  // Metrics (/metrics, Prometheus): readable with this bearer token; unset, from loopback only.
  METRICS_TOKEN: optionalText(512).pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  // The worker's own metrics listener on HOST; none unless set.
  WORKER_METRICS_PORT: z.literal('').transform(() => undefined).or(port.min(1).optional()),

  // Accounts.
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(60),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.email({ error: 'must be a comma-separated list of email addresses' }).max(256)).max(100)),
  // Password hashes (argon2, ~30 ms of a core each) at once per web process, and how many may wait;
  // beyond that, sign-in and sign-up answer 503 AUTH.BUSY with Retry-After so pages keep serving.
  AUTH_HASH_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(() => Math.max(1, availableParallelism() - 1)),
  AUTH_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  // Wrong passwords checked per account per hour (from everywhere); past it, password sign-in for
  // that account pauses and its owner signs in with an emailed link (ASVS: at most about 100).
  AUTH_SIGN_IN_FAILURES_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(100),
  // The longest wait before a password is checked once an account has many recent failures.
  AUTH_SIGN_IN_MAX_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  // Signs short-lived values such as the Google sign-in state; shared by every web process.
  AUTH_SECRET: optionalText(512).pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  GOOGLE_CLIENT_ID: optionalText(512),
  GOOGLE_CLIENT_SECRET: optionalText(512),
  GOOGLE_AUTHORIZATION_URL: z.url({ protocol: /^https?$/ }).max(2048).default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url({ protocol: /^https?$/ }).max(2048).default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.url({ protocol: /^https?$/ }).max(2048).default('https://openidconnect.googleapis.com/v1/userinfo'),

  // Credits and payments (with HAS_PAYMENT and HAS_LOGIN). Without a Stripe key: the local test checkout.
  TRIAL_CREDITS: z.coerce.number().int().min(0).max(100_000).default(10),
  STRIPE_SECRET_KEY: optionalText(512).pipe(z.string().regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_... or rk_...)').optional()),
  STRIPE_WEBHOOK_SECRET: optionalText(512).pipe(z.string().regex(/^whsec_[A-Za-z0-9+/=_]+$/, 'must be a webhook signing secret (whsec_...)').optional()),
  // Stripe's API origin; only tests and egress proxies change it.
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).max(2048).default('https://api.stripe.com'),
  // Checkouts a user may have open (pending, younger than a checkout session's 24 hours) at once.
  CHECKOUT_MAX_OPEN: z.coerce.number().int().min(1).max(100).default(3),
  // The seller named on receipts (SITE_NAME when unset) and its postal address ('\n' or ';' between lines).
  SELLER_NAME: optionalText(120),
  SELLER_ADDRESS: z.string().trim().max(400).default(''),
  // Self-service refunds: a pack paid within this many days with less than this share of its credits used (0 days: none).
  REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  REFUND_MAX_USED_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
  // Reminders: mail when a spend leaves fewer credits than this (0: never), and this many days before a lot with credits left expires (0: never).
  REMINDER_LOW_BALANCE_CREDITS: z.coerce.number().int().min(0).max(100_000).default(3),
  REMINDER_EXPIRY_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  // How often the reminders due are looked for, where the jobs run (tests shorten it).
  REMINDER_INTERVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(60_000),
  // When the success page may ask Stripe about a pending order, in ms after the order: one look-up
  // each, at most this many in all; the webhook is the news otherwise. Tests shorten them.
  STRIPE_LOOKUP_DELAYS_MS: z
    .string()
    .default('5000,15000,45000')
    .transform((v) => v.split(',').map((e) => e.trim()).filter(Boolean).map(Number))
    .pipe(z.array(z.number().int().min(0).max(86_400_000), { error: 'a comma-separated list of milliseconds' }).max(10)),

  // The image tool: where inputs and results are kept, and for how long.
  IMAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  IMAGE_MAX_UNFINISHED: z.coerce.number().int().min(1).max(100).default(3),
  // How soon a conversion whose worker died runs again (BullMQ's lock and stalled-job check), and
  // how often the image housekeeping (the relay of jobs left queued, refunds, old files) runs.
  IMAGE_JOB_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  IMAGE_HOUSEKEEPING_INTERVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  // How long the recent job durations behind the queue estimate are kept before being read again.
  IMAGE_ESTIMATE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  IMAGE_STORE: z.enum(['file', 's3']).default('file'),
  // With IMAGE_STORE=file and workers (REDIS_URL): DATA_DIR/images is one folder shared by every web
  // and worker process (a shared volume). Without it the web process refuses to start: uploads it
  // keeps would be out of the workers' reach.
  IMAGE_STORE_SHARED: flag(false),
  // Inference threads one AI upscale runs on (one ONNX session each). Unset: see imageThreads in app-config.ts.
  IMAGE_THREADS: z.preprocess(emptyIsUnset, z.coerce.number().int().min(1).max(64).optional()),
  S3_BUCKET: optionalText(63),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().trim().min(1).max(64).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText(256),
  S3_SECRET_ACCESS_KEY: optionalText(256),
  // S3-compatible servers (MinIO, s3rver) want bucket names in the path rather than the host.
  S3_FORCE_PATH_STYLE: flag(false),
}).superRefine((e, ctx) => {
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_MS'], message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the whole request includes its headers)' });
  }
  if (e.IMAGE_STORE === 's3' && !e.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required with IMAGE_STORE=s3' });
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required with STRIPE_SECRET_KEY (payments are confirmed by the webhook)' });
  }
  const switches = resolveSwitches(e);
  if (switches.google && switches.env === 'production' && !e.AUTH_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production when GOOGLE_OAUTH_LOGIN is on' });
  }
  // A production start never hands out credits without a real payment provider.
  if (switches.payments && !e.STRIPE_SECRET_KEY && switches.env === 'production' && !switches.testPayments) {
    ctx.addIssue({
      code: 'custom',
      path: ['HAS_PAYMENT'],
      message:
        'is on with NODE_ENV=production but STRIPE_SECRET_KEY is not set, so payments would go to the local test checkout, which grants credits without taking money. ' +
        'Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or HAS_PAYMENT=false, or TEST_PAYMENTS=true to run test payments on purpose',
    });
  }
});

export type Env = z.infer<typeof envSchema>;

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * `npm start` on a fresh clone with nothing configured: NODE_ENV, DATABASE_URL and PUBLIC_URL
 * unset and the site listening on this machine only (HOST loopback, the default). Then the whole
 * product runs locally in test mode: accounts, credits with the test checkout, the image tool,
 * and the first confirmed account as admin. Setting any of those four ends it.
 */
export const localTryOut = (e: Pick<Env, 'NODE_ENV' | 'DATABASE_URL' | 'PUBLIC_URL' | 'HOST'>) =>
  e.NODE_ENV === undefined && !e.DATABASE_URL && !e.PUBLIC_URL && LOOPBACK_HOSTS.test(e.HOST);

/** The switches as they apply: the feature defaults of the local try-out, and what depends on what. */
export function resolveSwitches(e: Env) {
  const local = localTryOut(e);
  const env = e.NODE_ENV ?? 'production';
  const login = e.HAS_LOGIN ?? local;
  const wantsPayments = e.HAS_PAYMENT ?? local;
  return {
    local,
    env,
    login,
    // Payments need accounts; Google needs its client.
    payments: wantsPayments && login,
    google: e.GOOGLE_OAUTH_LOGIN && login && Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
    testPayments: e.TEST_PAYMENTS ?? (local || env !== 'production'),
  };
}

/**
 * Settings that do not fit together but need not stop the start (what they switch stays off): one
 * line at start names them all. Settings that would be unsafe stop the start instead (envSchema).
 */
export function settingWarnings(e: Env): string[] {
  const s = resolveSwitches(e);
  const warnings: string[] = [];
  if (e.HAS_PAYMENT && !s.login) warnings.push('HAS_PAYMENT=true without HAS_LOGIN=true: credits belong to accounts, so payments stay off');
  if (e.GOOGLE_OAUTH_LOGIN && !s.login) warnings.push('GOOGLE_OAUTH_LOGIN=true without HAS_LOGIN=true: Google sign-in stays off');
  else if (e.GOOGLE_OAUTH_LOGIN && !s.google) warnings.push('GOOGLE_OAUTH_LOGIN=true without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: Google sign-in stays off');
  if (s.login && !e.EMAIL_LOGIN && !s.google) warnings.push('HAS_LOGIN=true with EMAIL_LOGIN=false and no Google sign-in: nobody can sign in');
  if (e.ADMIN_EMAILS.length && !s.login) warnings.push('ADMIN_EMAILS without HAS_LOGIN=true: admins cannot sign in, the admin screens stay hidden');
  if (e.STRIPE_SECRET_KEY && !s.payments) warnings.push('STRIPE_SECRET_KEY is set but payments are off (HAS_PAYMENT and HAS_LOGIN): it is not used');
  if (e.STRIPE_SECRET_KEY && s.payments && !e.SELLER_ADDRESS) warnings.push('STRIPE_SECRET_KEY without SELLER_ADDRESS: receipts of real payments name no seller address');
  if (e.TEST_PAYMENTS && e.STRIPE_SECRET_KEY) warnings.push('TEST_PAYMENTS=true with STRIPE_SECRET_KEY: Stripe takes the payments, TEST_PAYMENTS is ignored');
  if (e.IMAGE_STORE !== 's3' && (e.S3_BUCKET || e.S3_ENDPOINT)) warnings.push('S3_BUCKET or S3_ENDPOINT without IMAGE_STORE=s3: images are kept in files under DATA_DIR');
  if (e.WORKER_METRICS_PORT && !e.REDIS_URL) warnings.push('WORKER_METRICS_PORT without REDIS_URL: there is no worker process to listen');
  return warnings;
}
