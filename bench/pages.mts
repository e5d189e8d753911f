/**
 * npm run bench:pages — what `/`, `/levels`, `/levels/27` and `/pricing` cost to serve, rendered on
 * every request (PAGE_CACHE=false) and from the page cache: the HTML's bytes; bytes per response
 * (status line, headers and body) asked for identity, gzip and `br, gzip`; database round trips per
 * request (the site's page_database_round_trips metric); CPU per request of the web process plus
 * the PostgreSQL backends serving it, under load with `br, gzip` (what browsers send).
 *
 * The baseline, measured in the same rounds: a plain Fastify server answering each page's HTML from
 * memory, compressed per request with the settings the site used before issue 35 (brotli 1, gzip 4):
 * what putting those bytes on the wire costs with no render and no database, so the site's CPU is
 * read as a multiple of it and compared across runs on a noisy machine. BENCH_BEFORE=<another
 * checkout, built, with the same migrations> measures that build's servers too, in the same rounds.
 *
 * Then the compression table of the level page's HTML (bench/page-compression.mts), and the time to
 * the first byte of the uncached level page, one request at a time.
 *
 * PostgreSQL: BENCH_DATABASE_URL (default the local test server), a database of its own, dropped
 * afterwards; its backends' CPU is read from /proc when the server runs on this machine. Servers on
 * core 0 (taskset), the load generator on core 1; payments on (HAS_PAYMENT, test checkout) so that
 * /pricing exists. A warm-up per target, then interleaved rounds; medians.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { request as httpGet } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { measureCompression, printCompression } from './page-compression.mts';
import { benchDatabase, cpuMs, freePort, hasTaskset, load, median, pinLoadGenerator, ROOT, serve, waitFor, WEB_NODE_FLAGS } from './support.mts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// BENCH_WARM_UP_SECONDS=0 skips the warm-up (a check that the bench runs, not a measurement).
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? Math.min(2, SECONDS));
const ROUTES = ['/levels/27', '/', '/levels', '/pricing'];
const LOADED = 'br, gzip';
pinLoadGenerator();

interface Server {
  build: string;
  mode: 'uncached' | 'cached' | 'baseline';
  port: number;
  process: ChildProcess;
}

interface Sent {
  status: number;
  encoding: string;
  etag: string;
  /** Status line, headers and body, as they went over the wire. */
  responseBytes: number;
  body: Buffer;
  /** Milliseconds from sending the request to its response's head. */
  firstByteMs: number;
}

/** One GET, undecoded, with what it weighed on the wire. */
function get(port: number, path: string, acceptEncoding: string): Promise<Sent> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    httpGet({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const firstByteMs = Number(process.hrtime.bigint() - started) / 1e6;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        let head = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n\r\n`.length;
        for (let i = 0; i < response.rawHeaders.length; i += 2) head += `${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}\r\n`.length;
        const encoding = String(response.headers['content-encoding'] ?? 'identity');
        done({ status: response.statusCode ?? 0, encoding, etag: String(response.headers.etag ?? ''), responseBytes: head + body.length, body, firstByteMs });
      });
      response.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

/** The sizes a path answers with; a cached server is asked until its brotli 11 is there (made in the background after the second ask). */
async function sizes(server: Server, path: string) {
  const identity = await get(server.port, path, 'identity');
  if (identity.status !== 200) throw new Error(`${server.build} ${server.mode} ${path}: ${identity.status}`);
  const first = await get(server.port, path, LOADED);
  let browser = first;
  // A cached entry gets its brotli 11 (ETag ending in -br) in the background once asked again: until
  // then it answers brotli 5 (gzip in builds before brotli went to browsers).
  for (let i = 0; server.mode === 'cached' && !(browser.encoding === 'br' && browser.etag.endsWith('-br"')) && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    browser = await get(server.port, path, LOADED);
  }
  const gzip = await get(server.port, path, 'gzip');
  return { html: identity.body, identity: identity.responseBytes, gzip: gzip.responseBytes, browser: browser.responseBytes, bodies: { gzip: gzip.body.length, first: first.body.length, browser: browser.body.length } };
}

/** The round trips pages have recorded so far and how many page loads (every route), or null where the build does not count them. */
async function roundTrips(server: Server): Promise<{ sum: number; count: number } | null> {
  if (server.mode === 'baseline') return null;
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
  if (!text.includes('# TYPE page_database_round_trips histogram')) return null;
  const total = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return { sum: total('page_database_round_trips_sum'), count: total('page_database_round_trips_count') };
}

async function main() {
  const busy = loadavg()[0]!;
  if (busy > 0.5) console.log(`Note: load average ${busy.toFixed(2)} before the run; the figures are unreliable while other work runs.`);
  const database = await benchDatabase();
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  const pagesFile = join(tmpdir(), `${database.name}-pages.json`);
  const servers: Server[] = [];
  try {
    const builds = [{ name: 'this', root: ROOT }, ...(process.env.BENCH_BEFORE ? [{ name: 'before', root: resolve(process.env.BENCH_BEFORE) }] : [])];
    // One public URL for every server: the pages' absolute links are the same bytes whatever the port.
    const common = { HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'warn', DATABASE_URL: database.url, MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' };
    for (const build of builds) {
      for (const mode of ['cached', 'uncached'] as const) {
        const port = await freePort();
        const env = { ...common, PORT: String(port), ...(mode === 'uncached' ? { PAGE_CACHE: 'false', CONTENT_IMPORT_ON_START: 'false' } : {}) };
        servers.push({ build: build.name, mode, port, process: serve([...WEB_NODE_FLAGS, 'dist/server/main.js'], env, { cwd: build.root }) });
        // One at a time: the first migrates the database and imports the content.
        await waitFor(`http://127.0.0.1:${port}/readyz`);
      }
    }
    const measured = new Map<Server, Map<string, Awaited<ReturnType<typeof sizes>>>>();
    for (const server of servers) measured.set(server, new Map(await Promise.all(ROUTES.map(async (path) => [path, await sizes(server, path)] as const))));
    const ours = servers.find((s) => s.build === 'this' && s.mode === 'uncached')!;
    writeFileSync(pagesFile, JSON.stringify(Object.fromEntries(ROUTES.map((path) => [path, measured.get(ours)!.get(path)!.html.toString('base64')]))));
    const baseline: Server = { build: 'baseline', mode: 'baseline', port: await freePort(), process: undefined as unknown as ChildProcess };
    baseline.process = serve(['bench/pages-baseline-server.mts'], { PORT: String(baseline.port), BENCH_PAGES: pagesFile, NODE_PATH: join(ROOT, 'node_modules') });
    servers.push(baseline);
    await waitFor(`http://127.0.0.1:${baseline.port}/`);
    measured.set(baseline, new Map(await Promise.all(ROUTES.map(async (path) => [path, await sizes(baseline, path)] as const))));

    console.log(`bench:pages — ${ROUNDS} rounds of ${SECONDS}s per target, 20 connections, '${LOADED}'${hasTaskset ? '; servers on core 0, load generator on core 1' : ''}; builds: ${builds.map((b) => `${b.name} (${b.root})`).join(', ')}`);
    const targets = servers.flatMap((server) => ROUTES.map((path) => ({ server, path })));
    const url = (t: (typeof targets)[0]) => `http://127.0.0.1:${t.server.port}${t.path}`;
    if (WARM_UP_SECONDS > 0) for (const t of targets) await load(url(t), WARM_UP_SECONDS, 20, LOADED);

    // PostgreSQL's share: the CPU of the backends on the bench database (only the loaded server is busy).
    let postgresReadable = false;
    const postgresCpu = async () => {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database.name]);
      const byPid = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          byPid.set(pid, cpuMs(pid));
          postgresReadable = true;
        } catch {
          // A backend that just ended, or PostgreSQL on another machine (then none is readable).
        }
      }
      return byPid;
    };
    const runs = new Map<(typeof targets)[0], { rps: number; cpu: number; web: number; roundTrips: number | null }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        // The server's pool connections idle out between its turns: a second of load opens them again before measuring.
        if (WARM_UP_SECONDS > 0) await load(url(t), Math.min(1, WARM_UP_SECONDS), 20, LOADED);
        const pid = t.server.process.pid!;
        const [webBefore, pgBefore, tripsBefore] = [cpuMs(pid), await postgresCpu(), await roundTrips(t.server)];
        const run = await load(url(t), SECONDS, 20, LOADED);
        const [webAfter, pgAfter, tripsAfter] = [cpuMs(pid), await postgresCpu(), await roundTrips(t.server)];
        let postgres = 0;
        // A backend opened during the window counts whole.
        for (const [backend, after] of pgAfter) postgres += after - (pgBefore.get(backend) ?? 0);
        const web = (webAfter - webBefore) / run.requests;
        // Per page load where pages were loaded (requests still in flight when the window closed load too), else per request (cache hits load nothing).
        const trips = tripsBefore && tripsAfter ? (tripsAfter.sum - tripsBefore.sum) / Math.max(tripsAfter.count - tripsBefore.count, run.requests) : null;
        runs.set(t, [...(runs.get(t) ?? []), { rps: run.rps, web, cpu: web + postgres / run.requests, roundTrips: trips }]);
      }
    }

    console.log(`\n${'route'.padEnd(11)} ${'build'.padEnd(8)} ${'path'.padEnd(9)} ${'HTML'.padStart(7)} ${'identity'.padStart(8)} ${'gzip'.padStart(7)} ${'br,gzip'.padStart(7)} ${'trips'.padStart(6)} ${'CPU ms'.padStart(7)} ${'web ms'.padStart(7)} ${'req/s'.padStart(6)} ${'x base'.padStart(7)}`);
    const cpuOf = (server: Server, path: string) => median(runs.get(targets.find((t) => t.server === server && t.path === path)!)!.map((r) => r.cpu));
    for (const path of ROUTES) {
      for (const server of servers) {
        const size = measured.get(server)!.get(path)!;
        const rows = runs.get(targets.find((t) => t.server === server && t.path === path)!)!;
        const trips = rows.every((r) => r.roundTrips !== null) ? median(rows.map((r) => r.roundTrips!)).toFixed(2) : '-';
        const cpu = cpuOf(server, path);
        console.log(
          `${path.padEnd(11)} ${server.build.padEnd(8)} ${server.mode.padEnd(9)} ${String(size.html.length).padStart(7)} ${String(size.identity).padStart(8)} ${String(size.gzip).padStart(7)} ${String(size.browser).padStart(7)} ${trips.padStart(6)} ${cpu.toFixed(2).padStart(7)} ${median(rows.map((r) => r.web)).toFixed(2).padStart(7)} ${median(rows.map((r) => r.rps)).toFixed(0).padStart(6)} ${`${(cpu / cpuOf(baseline, path)).toFixed(2)}x`.padStart(7)}`,
        );
      }
    }
    if (!postgresReadable) console.log('PostgreSQL runs on another machine: CPU is the web process only.');
    console.log(
      "\nBytes are per response: status line, headers (a cached answer has an ETag: 45 bytes) and body. br,gzip is what a browser asks for; a cached page answers it with the uncached answer's brotli 5 until its brotli 11 is made (after the second ask), shown here once made.",
    );
    for (const path of ROUTES) {
      const cached = measured.get(servers.find((s) => s.build === 'this' && s.mode === 'cached')!)!.get(path)!.bodies;
      const uncached = measured.get(ours)!.get(path)!.bodies;
      const smaller = Math.max(cached.first, cached.browser) <= uncached.browser && cached.gzip <= uncached.gzip;
      console.log(`${path}: this build's bodies for br,gzip: uncached ${uncached.browser}, cached ${cached.first} then ${cached.browser}; for gzip: uncached ${uncached.gzip}, cached ${cached.gzip}: cached ${smaller ? 'never bigger' : 'BIGGER'}`);
    }

    const levelPage = measured.get(ours)!.get('/levels/27')!.html;
    printCompression('/levels/27', levelPage, await measureCompression(levelPage, Math.max(3, Math.round(20 * SECONDS))));
    // The level page's first-load JavaScript of each build, as the build's budget check counts it.
    console.log('\nFirst-load JavaScript of a level page, per build:');
    for (const build of builds) {
      const measured = spawnSync(process.execPath, [join(ROOT, 'scripts/bundle-size.mjs')], { env: { ...process.env, BUNDLE_ROOT: build.root }, encoding: 'utf8' });
      const line = /First-load JavaScript of a level page: (.*)/.exec(measured.stdout)?.[1];
      console.log(`  ${build.name} build: ${line ?? `not measured (no client build in ${build.root}/dist/client)`}`);
    }
    console.log('\nTime to first byte of /levels/27 rendered per request, one request at a time (median):');
    for (const server of servers.filter((s) => s.mode === 'uncached')) {
      const times = { identity: [] as number[], [LOADED]: [] as number[] };
      for (let i = 0; i < Math.max(5, ROUNDS * SECONDS * 20); i++) for (const encoding of ['identity', LOADED] as const) times[encoding].push((await get(server.port, '/levels/27', encoding)).firstByteMs);
      console.log(`  ${server.build} build: identity ${median(times.identity).toFixed(2)} ms, ${LOADED} ${median(times[LOADED]).toFixed(2)} ms`);
    }
  } finally {
    await Promise.all(
      servers
        .filter((server) => server.process.exitCode === null)
        .map((server) => {
          const exited = once(server.process, 'exit');
          server.process.kill('SIGTERM');
          return exited;
        }),
    );
    rmSync(pagesFile, { force: true });
    await admin.end();
    await database.drop();
  }
}

await main();
