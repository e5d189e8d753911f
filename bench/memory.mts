/**
 * npm run bench:memory — the web process's memory under many distinct pages, against its own memory
 * at rest measured in the same run.
 *
 * Starts the built web process on PostgreSQL (BENCH_DATABASE_URL, default the local test server; a
 * database of its own is created and dropped) with its defaults (page cache on), reads its resident
 * memory (VmRSS) at rest after a few pages, then loads BENCH_URLS (default 15,000) distinct URLs
 * the way browsers ask for them (`accept-encoding: br, gzip`, 20 at a time): searches of the level
 * list and of the blog (each a page cache entry of its own), list pages, and level pages with
 * tracking parameters (which share their page's entry). Then it reads the memory again at once and
 * after 10 s idle. Goal: under 400 MB after the load.
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { benchDatabase, freePort, serve, waitFor, WEB_NODE_FLAGS } from './support.mts';

const URLS = Number(process.env.BENCH_URLS ?? 15_000);
// Seconds the process settles before "at rest" and idles before "after idle"; 0 and 0 only check that the bench runs.
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 2);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const CONCURRENCY = 20;
const GOAL_MB = 400;
const PORT = await freePort();
const WORDS = ['key', 'door', 'lever', 'clock', 'mirror', 'candle', 'painting', 'safe', 'code', 'lamp', 'book', 'rope'];

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The i-th URL of the load: mostly distinct searches (a cache entry each), some shared pages. */
function urlOf(i: number): string {
  const word = `${WORDS[i % WORDS.length]} ${i}`;
  switch (i % 5) {
    case 0:
    case 1:
      return `/levels?query=${encodeURIComponent(word)}`;
    case 2:
      return `/blog?query=${encodeURIComponent(word)}`;
    case 3:
      return `/levels?page=${(i % 4) + 1}&difficulty=${['easy', 'medium', 'hard'][i % 3]}&utm_source=${i}`;
    default:
      return `/levels/${(i % 32) + 1}?utm_campaign=${i}`;
  }
}

async function main() {
  const database = await benchDatabase();
  let app: ChildProcess | undefined;
  try {
    app = serve([...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? WEB_NODE_FLAGS), 'dist/server/main.js'], { HOST: '127.0.0.1', PORT: String(PORT), LOG_LEVEL: 'warn', DATABASE_URL: database.url, MIGRATE_ON_START: 'true' });
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor(`${base}/readyz`);
    for (const path of ['/', '/levels', '/levels/27', '/blog']) await (await fetch(`${base}${path}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, REST_SECONDS * 1000));
    const atRest = rssMb(app.pid!);

    let next = 0;
    let failed = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < URLS) {
          const response = await fetch(`${base}${urlOf(next++)}`, { headers: { 'accept-encoding': 'br, gzip' } });
          await response.arrayBuffer();
          if (response.status !== 200) failed++;
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const afterLoad = rssMb(app.pid!);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const afterIdle = rssMb(app.pid!);

    console.log(`${URLS} distinct URLs in ${seconds.toFixed(1)} s (${(URLS / seconds).toFixed(0)} req/s, ${failed} not 200), ${CONCURRENCY} at a time, accept-encoding: br, gzip`);
    console.log(`RSS at rest          ${atRest.toFixed(0).padStart(5)} MB  1.00x`);
    console.log(`RSS after the load   ${afterLoad.toFixed(0).padStart(5)} MB  ${(afterLoad / atRest).toFixed(2)}x  (goal < ${GOAL_MB} MB: ${afterLoad < GOAL_MB ? 'met' : 'NOT MET'})`);
    console.log(`${`RSS after ${IDLE_SECONDS} s idle`.padEnd(20)} ${afterIdle.toFixed(0).padStart(5)} MB  ${(afterIdle / atRest).toFixed(2)}x`);
    if (failed > 0) process.exitCode = 1;
  } finally {
    if (app && app.exitCode === null) {
      const exited = once(app, 'exit');
      app.kill('SIGTERM');
      await exited;
    }
    await database.drop();
  }
}

await main();
