/**
 * npm run bench:ssr — how fast the built app renders its home page (streamed React SSR, page cache
 * off, embedded database; on PostgreSQL, a database of its own, when BENCH_DATABASE_URL is set),
 * against a baseline measured in the same run: a plain Fastify route answering the same bytes from
 * memory.
 * Server and load generator run on separate cores (taskset) on loopback; warm-up first, then
 * interleaved rounds; prints requests/s, p99 latency and the ratio to the baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { baselineServer, benchDatabase, freePort, hasTaskset, load, median, pinLoadGenerator, ROOT, serve, waitFor, WEB_NODE_FLAGS } from './support.mts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// BENCH_WARM_UP_SECONDS=0 skips the warm-up (a check that the bench runs, not a measurement).
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 2);
pinLoadGenerator();

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ssr-'));
  const database = process.env.BENCH_DATABASE_URL ? await benchDatabase() : undefined;
  const [appPort, basePort] = [await freePort(), await freePort()];
  const site = `http://127.0.0.1:${appPort}/`;
  const baselineUrl = `http://127.0.0.1:${basePort}/`;
  const app = serve([...WEB_NODE_FLAGS, 'dist/server/main.js'], { PORT: String(appPort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PAGE_CACHE: 'false', ...(database ? { DATABASE_URL: database.url } : {}) });
  try {
    await waitFor(`${site}healthz`);
    const html = await (await fetch(site)).text();
    const baseline = serve(['-e', baselineServer('/', basePort)], { BENCH_HTML: Buffer.from(html).toString('base64'), NODE_PATH: join(ROOT, 'node_modules') });
    try {
      await waitFor(baselineUrl);
      console.log(`home page: ${html.length} bytes; ${ROUNDS} rounds of ${SECONDS}s, 20 connections${hasTaskset ? ', server on core 0' : ''}`);
      if (WARM_UP_SECONDS > 0) {
        await load(site, WARM_UP_SECONDS);
        await load(baselineUrl, WARM_UP_SECONDS);
      }
      const ssr = [];
      const base = [];
      for (let round = 0; round < ROUNDS; round++) {
        base.push(await load(baselineUrl, SECONDS));
        ssr.push(await load(site, SECONDS));
      }
      const baseRps = median(base.map((r) => r.rps));
      const ssrRps = median(ssr.map((r) => r.rps));
      console.log(`baseline (bytes from memory): ${baseRps.toFixed(0)} req/s, p99 ${median(base.map((r) => r.p99))} ms`);
      console.log(`SSR home page (streamed):     ${ssrRps.toFixed(0)} req/s, p99 ${median(ssr.map((r) => r.p99))} ms`);
      console.log(`ratio SSR / baseline: ${(ssrRps / baseRps).toFixed(3)}x`);
    } finally {
      baseline.kill('SIGTERM');
    }
  } finally {
    if (app.exitCode === null) {
      const exited = once(app, 'exit');
      app.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

void main();
