import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { PublicConfig } from 'src/contracts/public-config';
import { envSchema, resolveSwitches, settingWarnings, type Env } from './config.schema';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** How long a client may take, and how many may be connected at once (the web process's HTTP server). */
export interface HttpLimits {
  /** From connecting to the end of the request headers. */
  headersTimeoutMs: number;
  /** From connecting to the end of the request body (a 10 MB upload must fit). */
  requestTimeoutMs: number;
  /** A connection with no bytes either way (a client that stops reading its answer). */
  idleTimeoutMs: number;
  /** An idle keep-alive connection between requests. */
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Open connections per client address (socket and, behind TRUST_PROXY, forwarded). */
  maxConnectionsPerClient: number;
}

/**
 * The typed configuration, read once from the environment and validated. Inject it (it is its own
 * DI token); nothing else in the code base reads process.env.
 */
export class AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly isProduction: boolean;
  /**
   * The local try-out: `npm start` with nothing configured (no NODE_ENV, DATABASE_URL or PUBLIC_URL,
   * listening on loopback). Accounts and payments default on (the test checkout), the mail's links
   * are logged, and the first confirmed account is an admin. See localTryOut.
   */
  readonly local: boolean;
  /** Settings that do not fit together, in words (logged in one line at start; what they switch stays off). */
  readonly warnings: readonly string[];
  /**
   * `origins`: where this site's own pages may send writes from (the CSRF checks): PUBLIC_URL's
   * origin, and in the local try-out every loopback name for the same port (see siteOrigins).
   */
  readonly http: { port: number; host: string; trustProxy: Env['TRUST_PROXY']; publicUrl: string; origins: readonly string[]; limits: HttpLimits };
  /** `format` unset: chosen at start by chooseLogFormat (pretty on a development terminal). */
  readonly log: { level: Env['LOG_LEVEL']; format?: Env['LOG_FORMAT'] };
  readonly database:
    | { kind: 'postgres'; url: string; migrateOnStart: boolean }
    | { kind: 'embedded'; dataDir: string; migrateOnStart: true };
  readonly redis: { url?: string; keyPrefix: string };
  readonly dataDir: string;
  readonly content: { dir: string; importOnStart: boolean };
  /** URLs per sitemap file: past it, /sitemap.xml is an index of /sitemap-N.xml parts. */
  readonly sitemapMaxUrls: number;
  /** Keep rendered pages that depend only on content in memory (off: every request renders). */
  readonly pageCache: boolean;
  /** How long a cached page lives: an import by another process (the CLI) shows within this. */
  readonly pageCacheTtlMs: number;
  /** How often a process writes the guide views it counted in memory (and once more at shutdown). */
  readonly guideViewsFlushMs: number;
  /** At most one guide-report mail per admin this often: the first report of a quiet spell at once, then a digest. */
  readonly guideReportDigestMs: number;
  /** Per-path redirect rules (301), empty by default. */
  readonly redirects: ReadonlyMap<string, string>;
  readonly mail: {
    smtpUrl?: string;
    from: string;
    dir: string;
    timeouts: { connectionMs: number; greetingMs: number; socketIdleMs: number };
    /** Attempts per outbox message in all; the relay never resets the count. */
    maxAttempts: number;
  };
  /** databaseRetryMs: a job that found the database unreachable waits this long, its attempt not counted. */
  /** retryDelayMs: every job's first retry delay instead of its own, when set (tests shorten it). */
  readonly queue: { concurrency: number; databaseRetryMs: number; retryDelayMs?: number };
  /** /metrics: the bearer token (unset: loopback only), and the worker's own listener port (unset: none). */
  readonly metrics: { token?: string; workerPort?: number };
  readonly auth: {
    sessionIdleMs: number;
    sessionMaxMs: number;
    adminEmails: ReadonlySet<string>;
    /** The local try-out's admin: the first account confirmed on this database (no ADMIN_EMAILS to set). */
    firstAccountIsAdmin: boolean;
    /** From AUTH_SECRET; random per process when unset (fine for one process, required in production with Google). */
    secret: string;
    /** Concurrent argon2 hashes per process, and how many may wait before AUTH.BUSY. */
    hashing: { concurrency: number; queue: number };
    /** Failed password checks per account per hour (then a mailed link), and the longest wait before a check. */
    signIn: { failuresPerHour: number; maxDelayMs: number };
    google?: { clientId: string; clientSecret: string; authorizationUrl: string; tokenUrl: string; userInfoUrl: string };
  };
  /** The installable app (the web manifest, src/ssr/web-manifest.ts): its short name, under its icon. */
  readonly webApp: { shortName: string };
  /** Credits and payments; `enabled` needs both HAS_PAYMENT and HAS_LOGIN (credits belong to accounts). */
  readonly payments: {
    enabled: boolean;
    trialCredits: number;
    stripe?: { secretKey: string; webhookSecret: string; apiUrl: string };
    /** Pending checkouts a user may have open at once (younger than a checkout session lives). */
    maxOpenCheckouts: number;
    /** When the success page may ask the gateway about a pending order (ms after the order, one look-up each, ascending). */
    lookupDelaysMs: readonly number[];
    /** Who the receipts name as the seller. */
    seller: { name: string; address: string[] };
    /** Self-service refunds: a pack paid within `windowDays` with less than `maxUsedPercent` of its credits used. */
    refundRule: { windowDays: number; maxUsedPercent: number };
    /** Reminder mails: below this balance after a spend, and this many days before a lot expires (0: off). */
    reminders: { lowBalanceCredits: number; expiryDays: number; everyMs: number };
  };
  readonly images: {
    retentionDays: number;
    /** A user's jobs queued or running at once. */
    maxUnfinished: number;
    /** How soon a job whose worker died is run again (BullMQ's lock and stalled check). */
    jobLockMs: number;
    /** How often the housekeeping runs where the jobs run: relay, refunds of lost jobs, old files. */
    housekeepingEveryMs: number;
    /** How long the recent durations behind the queue estimate are cached (browsers poll each second). */
    estimateCacheMs: number;
    /** Inference threads one AI upscale runs on, in the process that runs the jobs (IMAGE_THREADS, or imageThreads()). */
    threads: number;
    /** Files under DATA_DIR/images, or S3-compatible storage shared by several machines. */
    store: { kind: 'file'; dir: string; shared: boolean } | { kind: 's3'; bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  };
  readonly public: PublicConfig;

  constructor(e: Env) {
    const switches = resolveSwitches(e);
    this.env = switches.env;
    this.isProduction = switches.env === 'production';
    this.local = switches.local;
    this.warnings = settingWarnings(e);
    const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
    this.http = {
      port: e.PORT,
      host: e.HOST,
      trustProxy: e.TRUST_PROXY,
      publicUrl,
      origins: siteOrigins(publicUrl, this.local),
      limits: {
        headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
        idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
        keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        maxConnections: e.HTTP_MAX_CONNECTIONS,
        maxConnectionsPerClient: e.HTTP_MAX_CONNECTIONS_PER_CLIENT,
      },
    };
    this.log = { level: e.LOG_LEVEL, format: e.LOG_FORMAT };
    this.dataDir = resolve(e.DATA_DIR);
    this.content = { dir: resolve(e.CONTENT_DIR), importOnStart: e.CONTENT_IMPORT_ON_START };
    this.sitemapMaxUrls = e.SITEMAP_MAX_URLS;
    this.pageCache = e.PAGE_CACHE;
    this.pageCacheTtlMs = e.PAGE_CACHE_TTL_SECONDS * 1000;
    this.guideViewsFlushMs = e.GUIDE_VIEWS_FLUSH_MS;
    this.guideReportDigestMs = e.GUIDE_REPORT_DIGEST_MINUTES * 60_000;
    this.redirects = new Map(Object.entries(e.REDIRECTS));
    // The embedded database has no one else to migrate it, so it always migrates at start.
    this.database = e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          migrateOnStart: e.MIGRATE_ON_START,
        }
      : {
          kind: 'embedded',
          dataDir: resolve(this.dataDir, 'pglite'),
          migrateOnStart: true,
        };
    this.redis = { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX };
    this.mail = {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `"${e.SITE_NAME.replace(/["\\]/g, '')}" <no-reply@${new URL(publicUrl).hostname}>`,
      dir: resolve(this.dataDir, 'mail'),
      timeouts: { connectionMs: e.SMTP_CONNECTION_TIMEOUT_MS, greetingMs: e.SMTP_GREETING_TIMEOUT_MS, socketIdleMs: e.SMTP_SOCKET_TIMEOUT_MS },
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
    };
    this.queue = { concurrency: e.WORKER_CONCURRENCY, databaseRetryMs: e.JOB_DATABASE_RETRY_MS, retryDelayMs: e.JOB_RETRY_DELAY_MS };
    this.metrics = { token: e.METRICS_TOKEN, workerPort: e.WORKER_METRICS_PORT };
    const day = 24 * 60 * 60 * 1000;
    this.auth = {
      sessionIdleMs: e.SESSION_IDLE_DAYS * day,
      sessionMaxMs: Math.max(e.SESSION_MAX_DAYS, e.SESSION_IDLE_DAYS) * day,
      adminEmails: new Set(e.ADMIN_EMAILS),
      firstAccountIsAdmin: switches.local && switches.login,
      secret: e.AUTH_SECRET ?? randomBytes(32).toString('base64url'),
      hashing: { concurrency: e.AUTH_HASH_CONCURRENCY, queue: e.AUTH_HASH_QUEUE },
      signIn: { failuresPerHour: e.AUTH_SIGN_IN_FAILURES_PER_HOUR, maxDelayMs: e.AUTH_SIGN_IN_MAX_DELAY_MS },
      google:
        switches.google && e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
          ? {
              clientId: e.GOOGLE_CLIENT_ID,
              clientSecret: e.GOOGLE_CLIENT_SECRET,
              authorizationUrl: e.GOOGLE_AUTHORIZATION_URL,
              tokenUrl: e.GOOGLE_TOKEN_URL,
              userInfoUrl: e.GOOGLE_USERINFO_URL,
            }
          : undefined,
    };
    this.images = {
      retentionDays: e.IMAGE_RETENTION_DAYS,
      maxUnfinished: e.IMAGE_MAX_UNFINISHED,
      jobLockMs: e.IMAGE_JOB_LOCK_MS,
      housekeepingEveryMs: e.IMAGE_HOUSEKEEPING_INTERVAL_MS,
      estimateCacheMs: e.IMAGE_ESTIMATE_CACHE_MS,
      threads: e.IMAGE_THREADS ?? imageThreads({ cpus: availableParallelism(), jobsInWebProcess: !e.REDIS_URL }),
      store:
        e.IMAGE_STORE === 's3' && e.S3_BUCKET
          ? {
              kind: 's3',
              bucket: e.S3_BUCKET,
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : { kind: 'file', dir: resolve(this.dataDir, 'images'), shared: e.IMAGE_STORE_SHARED },
    };
    const paymentsOn = switches.payments;
    this.payments = {
      enabled: paymentsOn,
      trialCredits: e.TRIAL_CREDITS,
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
          ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL.replace(/\/+$/, '') }
          : undefined,
      maxOpenCheckouts: e.CHECKOUT_MAX_OPEN,
      lookupDelaysMs: [...e.STRIPE_LOOKUP_DELAYS_MS].sort((a, b) => a - b),
      seller: { name: e.SELLER_NAME ?? e.SITE_NAME, address: e.SELLER_ADDRESS.split(/\\n|;|\n/).map((line) => line.trim()).filter(Boolean) },
      refundRule: { windowDays: e.REFUND_WINDOW_DAYS, maxUsedPercent: e.REFUND_MAX_USED_PERCENT },
      reminders: { lowBalanceCredits: e.REMINDER_LOW_BALANCE_CREDITS, expiryDays: e.REMINDER_EXPIRY_DAYS, everyMs: e.REMINDER_INTERVAL_MS },
    };
    this.webApp = { shortName: e.SITE_SHORT_NAME ?? e.SITE_NAME };
    this.public = {
      siteName: e.SITE_NAME,
      gameName: e.GAME_NAME,
      siteUrl: publicUrl,
      settings: {
        has_login: switches.login,
        email_login: e.EMAIL_LOGIN,
        google_oauth_login: switches.google,
        // Payments need accounts: without HAS_LOGIN nothing of them shows.
        has_payment: paymentsOn,
      },
      trialCredits: paymentsOn ? e.TRIAL_CREDITS : 0,
      testPayments: paymentsOn && !e.STRIPE_SECRET_KEY,
      footerGroups: Object.fromEntries(
        Object.entries(e.FOOTER_LINK_GROUPS).filter((entry): entry is [string, [string, string][]] => Boolean(entry[1])),
      ),
      menu: {
        download: e.MENU_ENTRIES.includes('download'),
        faq: e.MENU_ENTRIES.includes('faq'),
        media: e.MENU_ENTRIES.includes('media'),
        blog: e.MENU_ENTRIES.includes('blog'),
      },
      appStores: { appStore: e.APP_STORE_URL, playStore: e.PLAY_STORE_URL },
      social: {
        email: e.SOCIAL_EMAIL,
        x: e.SOCIAL_X_URL,
        discord: e.SOCIAL_DISCORD_URL,
        github: e.SOCIAL_GITHUB_URL,
        coffee: e.SOCIAL_COFFEE_URL,
        twitch: e.SOCIAL_TWITCH_URL,
      },
      analyticsId: e.ANALYTICS_ID,
      levels: {
        searchMax: e.LEVEL_SEARCH_MAX,
        searchableMax: e.LEVELS_SEARCHABLE_MAX,
        claimed: e.LEVELS_CLAIMED,
      },
    };
  }
}

/**
 * Why the image tool cannot work as configured, or null: with workers (REDIS_URL) the conversions
 * run in other processes, often other machines or containers, and a file store under this
 * process's DATA_DIR is out of their reach unless that folder is shared (IMAGE_STORE_SHARED).
 * The web process and the worker refuse to start on it; the CLIs, which touch no image, do not.
 */
export function imageStoreProblem(config: Pick<AppConfig, 'redis' | 'payments' | 'images'>): string | null {
  const { store } = config.images;
  if (!config.redis.url || !config.payments.enabled || store.kind !== 'file' || store.shared) return null;
  return (
    `IMAGE_STORE=file with REDIS_URL: the workers convert the images, and they cannot read the uploads this process keeps in ${store.dir} ` +
    'unless that folder is shared. Mount one shared volume at DATA_DIR/images in every web and worker process and set IMAGE_STORE_SHARED=true, ' +
    'or keep the images in S3-compatible storage (IMAGE_STORE=s3, S3_BUCKET); docs/operations.md, "Image files"'
  );
}

/** Validates the environment; a bad value throws a ConfigError naming the variable. */
/**
 * The default of IMAGE_THREADS: every CPU the process may use (one upscale at a time per process,
 * its tiles spread over the threads); one fewer where the web process runs the jobs itself (no
 * Redis), so that pages keep a core. At least 1.
 */
export function imageThreads({ cpus, jobsInWebProcess }: { cpus: number; jobsInWebProcess: boolean }): number {
  return Math.min(64, Math.max(1, jobsInWebProcess ? cpus - 1 : cpus));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Record<string, string> = {}): AppConfig {
  env = { ...env, ...overrides };
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? '(environment)')}: ${issue.message}`),
    );
  }
  return new AppConfig(parsed.data);
}

/**
 * Libraries read NODE_ENV themselves (React picks its production build by it), so the validated
 * value, default "production", is written back before any of them loads.
 */
export function applyNodeEnv(config: AppConfig): void {
  process.env.NODE_ENV = config.env;
}

/**
 * The origins this site's pages are served from. The try-out prints http://localhost:PORT, but a
 * newcomer may type 127.0.0.1 or [::1]: the same process on the same port, so writes from those
 * pages are this site's too (accepted rather than redirected: a redirect would also send away
 * scripts, health checks and API clients that call 127.0.0.1 on purpose). A configured PUBLIC_URL
 * is the one origin.
 */
function siteOrigins(publicUrl: string, local: boolean): readonly string[] {
  const own = new URL(publicUrl);
  if (!local) return [own.origin];
  return ['localhost', '127.0.0.1', '[::1]'].map((hostname) => {
    const url = new URL(own.origin);
    url.hostname = hostname;
    return url.origin;
  });
}
