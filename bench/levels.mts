/**
 * npm run bench:levels — the hot path as browsers use it, each figure against a baseline measured in
 * the same run: the same bytes (compressed the same way) answered from memory by a plain Fastify
 * server, and the same JS file from plain @fastify/static with its precompressed files.
 *
 * Measured for `/levels/27` and `/`, uncompressed and with `accept-encoding: br, gzip`: the cached
 * page, the cached `_payload.json` of the level page, one hashed JS asset, and the level page
 * rendered on every request (PAGE_CACHE=false: a render and a PostgreSQL query each time), with the
 * server's CPU time per request for the latter.
 *
 * The app runs on PostgreSQL (BENCH_DATABASE_URL, default the local test server; a database of its
 * own is created and dropped). Servers are pinned to core 0 (taskset), the load generator
 * (autocannon, in this process) to core 1. A warm-up per target, then interleaved rounds; medians.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpGet } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { benchDatabase, cpuMs, type Encoding, freePort, hasTaskset, load, median, pinLoadGenerator, ROOT, serve, waitFor, WEB_NODE_FLAGS } from './support.mts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// Warm-up per target before measuring; BENCH_WARM_UP_SECONDS=0 skips it (a check that the bench runs, not a measurement).
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? Math.min(2, SECONDS));
const ENCODINGS: Encoding[] = ['identity', 'br, gzip'];
const PORTS = { baseline: await freePort(), cached: await freePort(), uncached: await freePort() };
pinLoadGenerator();

interface Target {
  name: string;
  path: string;
  encoding: Encoding;
  server: 'cached' | 'uncached';
  goal: number;
  /** The server's CPU time per request is measured too. */
  cpu?: boolean;
}

/** GET without decoding (fetch would decompress): the body as sent and its Content-Encoding. */
function raw(port: number, path: string, encoding: string): Promise<{ status: number; encoding: string; type: string; body: Buffer }> {
  return new Promise((resolveBody, reject) => {
    httpGet({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolveBody({
          status: response.statusCode ?? 0,
          encoding: String(response.headers['content-encoding'] ?? 'identity'),
          type: String(response.headers['content-type']),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The cached variants of a path as the site stores them (waits for the brotli one, made in the background). */
async function storedVariants(path: string) {
  const identity = await raw(PORTS.cached, path, 'identity');
  if (identity.status !== 200) throw new Error(`${path}: ${identity.status}`);
  const gzip = await raw(PORTS.cached, path, 'gzip');
  for (let i = 0; i < 100; i++) {
    const br = await raw(PORTS.cached, path, 'br');
    if (br.encoding === 'br') {
      return { type: identity.type, identity: identity.body.toString('base64'), br: br.body.toString('base64'), gzip: gzip.body.toString('base64'), sizes: [identity.body.length, br.body.length, gzip.body.length] };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${path}: no brotli variant after 10 s`);
}

async function main() {
  // Other work on the machine skews every figure (2 cores: one for the servers, one for the load).
  const busy = loadavg()[0]!;
  if (busy > 0.5) console.log(`Note: load average ${busy.toFixed(2)} before the run; the figures are unreliable while other work runs.`);
  const database = await benchDatabase();
  const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: database.url, MIGRATE_ON_START: 'true' };
  const variantsFile = join(tmpdir(), `${database.name}-variants.json`);
  const processes: ChildProcess[] = [];
  try {
    const cachedApp = serve([...WEB_NODE_FLAGS, 'dist/server/main.js'], { ...common, PORT: String(PORTS.cached) });
    processes.push(cachedApp);
    await waitFor(`http://127.0.0.1:${PORTS.cached}/readyz`);
    const uncachedApp = serve([...WEB_NODE_FLAGS, 'dist/server/main.js'], { ...common, PORT: String(PORTS.uncached), PAGE_CACHE: 'false', CONTENT_IMPORT_ON_START: 'false' });
    processes.push(uncachedApp);
    await waitFor(`http://127.0.0.1:${PORTS.uncached}/readyz`);

    const manifest = JSON.parse(readFileSync(resolve(ROOT, 'dist/client/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const asset = `/${manifest['web/entry-client.tsx']!.file}`;
    const paths = ['/levels/27', '/', '/levels/27/_payload.json'];
    const stored: Record<string, Awaited<ReturnType<typeof storedVariants>>> = {};
    for (const path of paths) stored[path] = await storedVariants(path);
    writeFileSync(variantsFile, JSON.stringify(stored));
    processes.push(serve(['bench/baseline-server.mts'], { PORT: String(PORTS.baseline), BENCH_VARIANTS: variantsFile, BENCH_CLIENT: resolve(ROOT, 'dist/client') }));
    await waitFor(`http://127.0.0.1:${PORTS.baseline}/levels/27`);

    const targets: Target[] = [];
    for (const encoding of ENCODINGS) {
      targets.push({ name: 'level page, cached', path: '/levels/27', encoding, server: 'cached', goal: 0.8 });
      targets.push({ name: 'home page, cached', path: '/', encoding, server: 'cached', goal: 0.8 });
      targets.push({ name: 'level payload, cached', path: '/levels/27/_payload.json', encoding, server: 'cached', goal: 0.8 });
      targets.push({ name: 'level page, uncached', path: '/levels/27', encoding, server: 'uncached', goal: 0.04, cpu: true });
    }
    targets.push({ name: 'JS asset (entry)', path: asset, encoding: 'br, gzip', server: 'cached', goal: 0.8 });
    const baselines = [...new Map(targets.map((t) => [`${t.path} ${t.encoding}`, { path: t.path, encoding: t.encoding }])).values()];
    const pids = { cached: cachedApp.pid!, uncached: uncachedApp.pid! };

    console.log(
      `${ROUNDS} rounds of ${SECONDS}s, 20 connections${hasTaskset ? '; servers on core 0, load generator on core 1' : ''}. Bytes (identity / br / gzip): ` +
        paths.map((p) => `${p} ${stored[p]!.sizes.join(' / ')}`).join('; '),
    );
    const baseUrl = (b: { path: string }) => `http://127.0.0.1:${PORTS.baseline}${b.path}`;
    const siteUrl = (t: Target) => `http://127.0.0.1:${PORTS[t.server]}${t.path}`;
    if (WARM_UP_SECONDS > 0) {
      for (const b of baselines) await load(baseUrl(b), WARM_UP_SECONDS, 20, b.encoding);
      for (const t of targets) await load(siteUrl(t), WARM_UP_SECONDS, 20, t.encoding);
    }

    const baseRuns = new Map<string, number[]>();
    const siteRuns = new Map<Target, { rps: number; p99: number; cpuPerRequest: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const b of baselines) {
        const key = `${b.path} ${b.encoding}`;
        baseRuns.set(key, [...(baseRuns.get(key) ?? []), (await load(baseUrl(b), SECONDS, 20, b.encoding)).rps]);
      }
      for (const t of targets) {
        const pid = pids[t.server];
        const before = cpuMs(pid);
        const run = await load(siteUrl(t), SECONDS, 20, t.encoding);
        siteRuns.set(t, [...(siteRuns.get(t) ?? []), { ...run, cpuPerRequest: (cpuMs(pid) - before) / run.requests }]);
      }
    }

    console.log(`${'target'.padEnd(24)} ${'encoding'.padEnd(9)} ${'req/s'.padStart(7)} ${'p99'.padStart(6)} ${'baseline'.padStart(8)} ${'ratio'.padStart(7)}  goal`);
    const cpu: Partial<Record<Encoding, number>> = {};
    for (const t of targets) {
      const runs = siteRuns.get(t)!;
      const rps = median(runs.map((r) => r.rps));
      const base = median(baseRuns.get(`${t.path} ${t.encoding}`)!);
      const ratio = rps / base;
      const cpuNote = t.cpu ? `  CPU ${median(runs.map((r) => r.cpuPerRequest)).toFixed(2)} ms/request` : '';
      if (t.cpu) cpu[t.encoding] = median(runs.map((r) => r.cpuPerRequest));
      console.log(
        `${t.name.padEnd(24)} ${t.encoding.padEnd(9)} ${rps.toFixed(0).padStart(7)} ${`${median(runs.map((r) => r.p99))}ms`.padStart(6)} ${base.toFixed(0).padStart(8)} ${`${ratio.toFixed(3)}x`.padStart(7)}  >= ${t.goal}x ${ratio >= t.goal ? 'met' : 'NOT MET'}${cpuNote}`,
      );
    }
    const cpuRatio = cpu['br, gzip']! / cpu.identity!;
    console.log(
      `CPU per uncached level page: ${cpu.identity!.toFixed(2)} ms uncompressed, ${cpu['br, gzip']!.toFixed(2)} ms compressed: ${cpuRatio.toFixed(2)}x (goal <= 1.5x: ${cpuRatio <= 1.5 ? 'met' : 'NOT MET'})`,
    );
  } finally {
    await Promise.all(
      processes
        .filter((child) => child.exitCode === null)
        .map((child) => {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          return exited;
        }),
    );
    rmSync(variantsFile, { force: true });
    await database.drop();
  }
}

await main();
