import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from './support/app-process';
import { CONTENT_TEMPLATE_DATABASE, createTestDatabase, POSTGRES_URL, REDIS_URL, TEMPLATE_DATABASE, testRedisPrefix, type TestDatabase } from './support/services';
import { until } from './support/until';

/**
 * Every npm script the tables of the README and of docs/ list, run the way a newcomer runs it
 * (`npm run <name>` from the repository, nothing configured but what the row says), after the build
 * `npm test` made. The list comes from those files themselves, so a new row without a recipe here
 * fails this test. Each
 * recipe checks that its script starts and does its job with the least work: the test tiers are
 * not run again here (`npm test` has just run them), benches run with their smallest settings.
 */

interface Run {
  code: number | null;
  output: string;
}

/** Runs `npm run <script>` (or `npm start`) in its own process group, with only `env` (plus PATH, HOME). */
/**
 * Where the jest runs of these recipes record their timings: not var/test-timings, whose records of
 * the real run `npm test` and `npm run test:timing` report (one spec file's 0.1 s replaced the unit
 * tier's time there).
 */
const SCRATCH_TIMINGS = join(tmpdir(), `npm-scripts-timings-${process.pid}`);

function npm(script: string, env: Record<string, string>, extra: string[] = []) {
  const args = script === 'start' ? ['start'] : ['run', script, ...(extra.length ? ['--', ...extra] : [])];
  const child = spawn('npm', ['--silent', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TEST_TIMINGS_DIR: SCRATCH_TIMINGS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  return {
    output: () => output,
    exited,
    /** Waits until `probe` holds; the error carries the script's output. */
    async until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
      await until(what, async () => (await probe()) || (child.exitCode !== null ? 'exited' : false), timeoutMs).then(
        (value) => {
          if (value === 'exited') throw new Error(`npm ${script} exited with ${child.exitCode} before ${what}:\n${output}`);
        },
        (error: Error) => {
          throw new Error(`${error.message}:\n${output}`);
        },
      );
    },
    /** Runs to completion (killed after `timeoutMs`). */
    async finish(timeoutMs = 240_000): Promise<Run> {
      const timer = setTimeout(() => signal('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return { code, output };
    },
    /** Ctrl-C in the terminal: SIGINT to the whole process group; resolves when npm exits (SIGKILL after 30 s). */
    async interrupt(): Promise<Run> {
      signal('SIGINT');
      const timer = setTimeout(() => signal('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return { code, output };
    },
    /**
     * Stops a long-running script as an orchestrator would stop the process: SIGTERM, then SIGKILL
     * to the whole group after 30 s.
     */
    async stop(): Promise<Run> {
      // The script's own processes (the leaves of the tree): npm and the shell between pass on
      // what they exit with.
      const rows = execFileSync('ps', ['-o', 'pid=,ppid=', '-g', String(child.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
      const parents = new Set(rows.map(([, ppid]) => ppid));
      for (const [pid] of rows.filter(([pid]) => !parents.has(pid))) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      const timer = setTimeout(() => signal('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return { code, output };
    },
  };
}

const get = (url: string) => fetch(url).then((r) => r.status, () => 0);
/** A bench run here starts on a copy of the run's template with the content in, not on an empty database: its figures are what it is checked for. */
const withContent = () => ({ BENCH_TEMPLATE_DATABASE: CONTENT_TEMPLATE_DATABASE! });

interface Tier {
  name: string;
  script: string;
  /** The tiers that must have passed before it starts. */
  after: string[];
}

/** The tiers `npm test` runs, in order (scripts/test.mjs). */
const tiers = (): Tier[] => JSON.parse(execFileSync(process.execPath, ['scripts/test.mjs', '--list'], { cwd: ROOT, encoding: 'utf8' })) as Tier[];

/**
 * The spec files a tier's script selects (jest --listTests: nothing runs), relative to the repository.
 * Each tier's list is asked for once per file: the tier test and the tier's own recipe read the same run.
 */
const listed = new Map<string, Promise<string[]>>();
function filesOf(script: string): Promise<string[]> {
  if (!listed.has(script)) listed.set(script, listTests(script));
  return listed.get(script)!;
}

async function listTests(script: string): Promise<string[]> {
  const run = await npm(script, { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, ['--listTests']).finish(60_000);
  expect(run.code).toBe(0);
  return run.output
    .split('\n')
    .filter((line) => line.startsWith(ROOT))
    .map((line) => line.slice(ROOT.length + 1))
    .sort();
}

/** Every spec file in the repository, by the names the style guide gives them. */
async function allSpecFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['src', 'web', 'scripts', 'test']) {
    for (const entry of await readdir(join(ROOT, dir), { recursive: true })) {
      if (/\.(spec\.tsx?|int-spec\.ts|e2e-spec\.ts)$/.test(entry)) found.push(join(dir, entry));
    }
  }
  return found.sort();
}

/** The scripts named in the tables of the README and of docs/*.md (`npm run x`, `npm start`, `npm test`). */
async function scriptsInDocTables(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
  const names = new Set<string>();
  for (const file of ['README.md', ...docs]) {
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const line of text.split('\n').filter((l) => l.startsWith('|'))) {
      for (const m of line.matchAll(/`npm (?:run ([\w:-]+)|(start|test))\b/g)) names.add(m[1] ?? m[2]!);
    }
  }
  return [...names].sort();
}

describe('the npm scripts the README and docs/ list', () => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  let migrated: TestDatabase;

  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'npm-script-'));
    dirs.push(dir);
    return dir;
  };
  /** A migrated database (the run's template), or an empty one for the first start and the first migrate. */
  const database = async (empty = false) => {
    const db = await createTestDatabase({ empty });
    databases.push(db);
    return db;
  };

  beforeAll(async () => {
    migrated = await database();
  });

  afterAll(async () => {
    await Promise.all(databases.map((db) => db.drop()));
    await Promise.all([...dirs, SCRATCH_TIMINGS].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** What each script must do; `npm test` runs build and lint before the tests themselves. */
  const recipes: Record<string, () => Promise<void>> = {
    async start() {
      // The newcomer's first start on PostgreSQL: an empty database, nothing else configured.
      const db = await database(true);
      const port = await freePort();
      const app = npm('start', { DATABASE_URL: db.url, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: await tempDir() });
      try {
        await app.until('/readyz answers 200', async () => (await get(`http://127.0.0.1:${port}/readyz`)) === 200);
        expect(await get(`http://127.0.0.1:${port}/`)).toBe(200);
        expect(await get(`http://127.0.0.1:${port}/levels/27`)).toBe(200);
      } finally {
        // A stop that is not clean says why: the process's own last lines.
        const stopped = await app.stop();
        expect({ code: stopped.code, output: stopped.code === 0 ? '' : stopped.output.slice(-4000) }).toEqual({ code: 0, output: '' });
      }
    },
    async dev() {
      const port = await freePort();
      // On PostgreSQL: the watchers and Vite are the point, not the embedded database's start.
      const dev = npm('dev', { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: await tempDir(), DATABASE_URL: (await database()).url });
      try {
        await dev.until('the home page answers 200', async () => (await get(`http://127.0.0.1:${port}/`)) === 200);
        expect(await get(`http://127.0.0.1:${port}/levels/27`)).toBe(200);
        // The server's watcher runs (SWC's needs chokidar), compiling into var/dev, never over the build in dist/.
        expect(dev.output()).not.toMatch(/Cannot find module|required for --watch/);
      } finally {
        // Stopped as a developer stops it: Ctrl-C, which reaches the whole process group.
        await dev.interrupt();
      }
    },
    async worker() {
      const redisKeys = testRedisPrefix();
      const worker = npm('worker', { DATABASE_URL: migrated.url, REDIS_URL, REDIS_KEY_PREFIX: redisKeys.prefix });
      try {
        await worker.until('the worker is ready', () => worker.output().includes('Worker ready'));
        const stopped = await worker.stop();
        expect({ code: stopped.code, output: stopped.code === 0 ? '' : stopped.output.slice(-4000) }).toEqual({ code: 0, output: '' });
      } finally {
        await redisKeys.drop();
      }
    },
    async migrate() {
      const db = await database(true);
      const first = await npm('migrate', { DATABASE_URL: db.url }).finish();
      expect(first.output).toMatch(/Applied .+ to the postgres database/);
      expect(first.code).toBe(0);
      const again = await npm('migrate', { DATABASE_URL: db.url }).finish();
      expect(again.output).toContain('The postgres database is up to date');
    },
    async 'migration:create'() {
      const run = await npm('migration:create', { DATABASE_URL: migrated.url }).finish();
      // A regression would write a migration file into the repository: remove it, then fail.
      const written = /Wrote (migrations\/\S+\.ts)/.exec(run.output)?.[1];
      if (written) await rm(join(ROOT, written), { force: true });
      expect(run.output).toContain('The entities match the database: no migration needed');
      expect(run.code).toBe(0);
    },
    async 'content:import'() {
      const run = await npm('content:import', { DATABASE_URL: migrated.url }).finish();
      expect(run.output).toMatch(/Level guides: \d+ new, \d+ updated/);
      expect(run.code).toBe(0);
    },
    async 'content:wanted'() {
      const run = await npm('content:wanted', { DATABASE_URL: migrated.url }).finish();
      // Nobody asked for a guide on this database.
      expect(run.output).toContain('No guide requests yet');
      expect(run.code).toBe(0);
    },
    async lint() {
      // `npm test` runs it as its first tier (so every run proves it works): type-check, ESLint, layering, unused code.
      expect(tiers()[0]).toEqual(expect.objectContaining({ name: 'lint', script: 'test:lint' }));
      const scripts = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      expect(scripts['test:lint']).toBe('npm run lint');
      expect(scripts.lint).toBe('npm run typecheck && eslint . && depcruise src web migrations --config .dependency-cruiser.cjs && knip --no-progress');
    },
    async 'test:lint'() {
      await recipes.lint!();
    },
    async 'test:unit'() {
      // One spec file, not the suite again; "no services needed": nothing answers where they point.
      const run = await npm('test:unit', { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', TEST_REDIS_URL: 'redis://127.0.0.1:1' }, [
        'src/contracts/level-number.spec.ts',
      ]).finish();
      expect(run.output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
      expect(run.code).toBe(0);
      // Its timing went to the scratch folder, so the real run's unit time stays what it was.
      expect(JSON.parse(await readFile(join(SCRATCH_TIMINGS, 'unit.json'), 'utf8')).files).toEqual([expect.objectContaining({ file: 'src/contracts/level-number.spec.ts' })]);
    },
    async 'test:int'() {
      const files = await filesOf('test:int');
      expect(files).toEqual(expect.arrayContaining(['test/http.e2e-spec.ts', 'test/levels.int-spec.ts']));
      expect(files.filter((f) => /browser\.e2e-spec/.test(f))).toEqual([]);
    },
    async 'test:e2e'() {
      const files = await filesOf('test:e2e');
      expect(files).toEqual(expect.arrayContaining(['test/npm-scripts.e2e-spec.ts', 'test/a11y.browser.e2e-spec.ts']));
      expect(files.filter((f) => !f.endsWith('.e2e-spec.ts'))).toEqual([]);
    },
    async 'test:timing'() {
      // The last runs' records, as the jest reporter and `npm test` write them: tier times, slowest files.
      const dir = await tempDir();
      const file = (name: string, seconds: number) => ({ tier: 'int', file: `test/${name}`, seconds, failed: false });
      await writeFile(join(dir, 'lint.json'), JSON.stringify({ tier: 'lint', seconds: 31.5, files: [] }));
      await writeFile(join(dir, 'int.json'), JSON.stringify({ tier: 'int', seconds: 125, files: Array.from({ length: 12 }, (_, i) => file(`f${i}.e2e-spec.ts`, i + 0.5)) }));
      const run = await npm('test:timing', { TEST_TIMINGS_DIR: dir }).finish(60_000);
      expect(run.code).toBe(0);
      expect(run.output).toMatch(/lint\s+31\.5 s/);
      expect(run.output).toMatch(/int\s+2 min 05 s/);
      expect(run.output).toMatch(/total\s+2 min 37 s/);
      const slowest = [...run.output.matchAll(/test\/f(\d+)\.e2e-spec\.ts/g)].map((m) => Number(m[1]));
      expect(slowest).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    },
    async 'bench:levels'() {
      const run = await npm('bench:levels', { BENCH_ROUNDS: '1', BENCH_SECONDS: '0.2', BENCH_WARM_UP_SECONDS: '0', ...withContent() }).finish();
      // Every row: the site's req/s, the baseline's, the ratio and whether the goal is met.
      for (const row of ['level page, cached', 'home page, cached', 'level payload, cached', 'level page, uncached']) {
        for (const encoding of ['identity', 'br, gzip']) expect(run.output).toMatch(new RegExp(`${row}\\s+${encoding}\\s+\\d+\\s+[\\d.]+ms\\s+\\d+\\s+\\d+\\.\\d{3}x\\s+>= [\\d.]+x (met|NOT MET)`));
      }
      expect(run.output).toMatch(/JS asset \(entry\)\s+br, gzip\s+\d+/);
      expect(run.output).toMatch(/CPU per uncached level page: [\d.]+ ms uncompressed, [\d.]+ ms compressed: [\d.]+x/);
      expect(run.code).toBe(0);
    },
    async 'bench:pages'() {
      const run = await npm('bench:pages', { BENCH_ROUNDS: '1', BENCH_SECONDS: '0.2', BENCH_WARM_UP_SECONDS: '0', ...withContent() }).finish();
      // Every route, rendered per request and cached, and the baseline: bytes, round trips, CPU, req/s and the CPU ratio.
      for (const route of ['/levels/27', '/', '/levels', '/pricing']) {
        for (const server of ['this\\s+cached', 'this\\s+uncached', 'baseline\\s+baseline']) {
          expect(run.output).toMatch(new RegExp(`^${route}\\s+${server}(\\s+\\d+){4}\\s+([\\d.]+|-)(\\s+[\\d.]+){3}\\s+[\\d.]+x$`, 'm'));
        }
        expect(run.output).toMatch(new RegExp(`^${route}: this build's bodies for br,gzip: .*: cached never bigger$`, 'm'));
      }
      expect(run.output).toMatch(/^ {2}this build: \d+\.\d KB gzipped \(entry \d+\.\d KB; budget 90 KB\)/m);
      for (const setting of ['brotli 1', 'brotli 5', 'gzip 6']) expect(run.output).toMatch(new RegExp(`^${setting}\\s+\\d+(\\s+[\\d.]+){2}\\s+(-?\\d+|-)\\s+\\d+\\s+[\\d.]+$`, 'm'));
      expect(run.output).toMatch(/this build: identity [\d.]+ ms, br, gzip [\d.]+ ms/);
      expect(run.code).toBe(0);
    },
    async 'bench:memory'() {
      const run = await npm('bench:memory', { BENCH_URLS: '50', BENCH_REST_SECONDS: '0', BENCH_IDLE_SECONDS: '0', ...withContent() }).finish();
      expect(run.output).toMatch(/50 distinct URLs in [\d.]+ s \(\d+ req\/s, 0 not 200\)/);
      expect(run.output).toMatch(/RSS at rest\s+\d+ MB/);
      expect(run.output).toMatch(/RSS after the load\s+\d+ MB\s+[\d.]+x\s+\(goal < 400 MB: (met|NOT MET)\)/);
      expect(run.code).toBe(0);
    },
    async 'bench:catalogue'() {
      // 100 guides and 10 posts, one round: every table and line, on PostgreSQL. Not on the embedded
      // database too: its two fresh starts (migrations in WebAssembly) were two thirds of the bench's
      // CPU here, and the embedded database's start, import and search have tests of their own
      // (startup, newcomer.browser, search).
      const run = await npm('bench:catalogue', { CATALOGUE_GUIDES: '100', CATALOGUE_POSTS: '10', CATALOGUE_ROUNDS: '1', CATALOGUE_EMBEDDED: 'false', BENCH_TEMPLATE_DATABASE: TEMPLATE_DATABASE! }).finish();
      expect(run.output).not.toContain('Embedded (PGlite)');
      expect(run.output).toMatch(/PostgreSQL import: 100 guides [\d.]+ s \([\d.]+ ms a guide; sample 32 guides [\d.]+ s, [\d.]+ ms a guide: [\d.]+x per guide\)/);
      expect(run.output).toMatch(/PostgreSQL import: .* web process after the import \d+ MB resident \(sample \d+ MB: [\d.]+x\)/);
      for (const kind of ['typical', 'misspelt']) expect(run.output).toMatch(new RegExp(`${kind} \\(20 searches\\)\\s+[\\d.]+ ms\\s+[\\d.]+ ms\\s+[\\d.]+ ms\\s+[\\d.]+ ms\\s+[\\d.]+x\\s+[\\d.]+x`));
      for (const page of ['home /', '/levels', '/levels/hardest', 'guide /levels/27', '/explore', '/search\\?q=brass\\+key', '/sitemap.xml']) {
        expect(run.output).toMatch(new RegExp(`^${page}\\s+[\\d,]+\\s+[\\d,]+\\s+[\\d,]+\\s+[\\d.]+x\\s+(YES|no)\\s+[\\d.]+\\s+[\\d.]+$`, 'm'));
      }
      expect(run.output).toMatch(/sitemap: large \d+ URLs, half \d+ URLs, sample \d+ URLs/);
      expect(run.code).toBe(0);
    },
    async 'bench:ssr'() {
      // On PostgreSQL (its default, the embedded database, starts in tests of its own).
      const run = await npm('bench:ssr', { BENCH_ROUNDS: '1', BENCH_SECONDS: '0.2', BENCH_WARM_UP_SECONDS: '0', BENCH_DATABASE_URL: POSTGRES_URL, ...withContent() }).finish();
      expect(run.output).toMatch(/\d+\.\d{3}x/);
      expect(run.code).toBe(0);
    },
    // `npm test` is what CI runs, and it builds before the tiers that start the built app.
    async build() {
      const build = tiers().find((t) => t.name === 'build')!;
      expect(build.script).toBe('build');
      // Done before the tiers that start the built app begin.
      for (const name of ['int', 'e2e']) expect(tiers().find((t) => t.name === name)!.after).toContain('build');
    },
    async test() {
      const scripts = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      expect(scripts.test).toBe('node scripts/test.mjs');
      expect(tiers().map((t) => t.name)).toEqual(['lint', 'unit', 'build', 'int', 'e2e']);
      for (const tier of tiers()) expect(scripts[tier.script]).toBeDefined();
    },
  };

  it('puts every spec file in exactly one jest tier', async () => {
    const [unit, int, e2e] = await Promise.all(['test:unit', 'test:int', 'test:e2e'].map(filesOf));
    expect([...unit!, ...int!, ...e2e!].sort()).toEqual(await allSpecFiles());
  });

  it('has a recipe for every script the README and docs/ list', async () => {
    const listed = await scriptsInDocTables();
    expect(listed.length).toBeGreaterThan(8);
    expect(listed.filter((name) => !(name in recipes))).toEqual([]);
  });

  it('starts the web process with the same heap flags from npm start and from the Docker image', async () => {
    const scripts = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const flags = scripts.start!.split(' ').filter((arg) => arg.startsWith('--'));
    expect(flags).toEqual([expect.stringMatching(/^--max-semi-space-size=\d+$/), expect.stringMatching(/^--max-old-space-size=\d+$/)]);
    const cmd = /^CMD (\[.*\])$/m.exec(await readFile(join(ROOT, 'docker/Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', '--enable-source-maps', ...flags, 'dist/server/main.js']);
  });

  it.each(Object.keys(recipes))('npm run %s', async (name) => {
    await recipes[name]!();
  }, 300_000);
});
