/**
 * npm run bench:levels — the hot path: a level page, cached and uncached, against a baseline
 * measured in the same run (a plain Fastify route answering the same page's bytes from memory).
 *
 * The app runs on PostgreSQL (BENCH_DATABASE_URL, default the local test server; a database of its
 * own is created and dropped) so "uncached" includes a real database query. Server processes are
 * pinned to core 0 with taskset, the load generator (autocannon, in this process) to core 1; each
 * target gets a warm-up, then interleaved rounds; medians are reported. Requests and time are bounded.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { baselineServer, hasTaskset, load, median, pinLoadGenerator, ROOT, serve, waitFor } from './support.mts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PAGE = '/levels/27';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
pinLoadGenerator();

async function main() {
  const dbName = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: url.toString(), MIGRATE_ON_START: 'true' };
  const processes: ChildProcess[] = [];
  try {
    // Two app processes on the same core, one at a time under load: cached and uncached.
    processes.push(serve(['dist/server/src/main.js'], { ...common, PORT: '3202' }));
    await waitFor('http://127.0.0.1:3202/healthz');
    processes.push(serve(['dist/server/src/main.js'], { ...common, PORT: '3203', PAGE_CACHE: 'false', CONTENT_IMPORT_ON_START: 'false' }));
    await waitFor('http://127.0.0.1:3203/healthz');
    const html = await (await fetch(`http://127.0.0.1:3202${PAGE}`)).text();
    processes.push(serve(['-e', baselineServer(PAGE, 3201)], { BENCH_HTML: Buffer.from(html).toString('base64'), NODE_PATH: resolve(ROOT, 'node_modules') }));
    await waitFor(`http://127.0.0.1:3201${PAGE}`);

    const targets = {
      baseline: `http://127.0.0.1:3201${PAGE}`,
      cached: `http://127.0.0.1:3202${PAGE}`,
      uncached: `http://127.0.0.1:3203${PAGE}`,
    };
    console.log(`${PAGE}: ${html.length} bytes; ${ROUNDS} rounds of ${SECONDS}s, 20 connections, uncompressed${hasTaskset ? '; servers on core 0, load on core 1' : ''}`);
    for (const target of Object.values(targets)) await load(target, 2);
    const results: Record<keyof typeof targets, { rps: number; p99: number }[]> = { baseline: [], cached: [], uncached: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets) as [keyof typeof targets, string][]) {
        results[name].push(await load(target, SECONDS));
      }
    }
    const base = median(results.baseline.map((r) => r.rps));
    for (const [name, runs] of Object.entries(results)) {
      const rps = median(runs.map((r) => r.rps));
      const p99 = median(runs.map((r) => r.p99));
      const target = name === 'cached' ? '  (target >= 0.8x)' : name === 'uncached' ? '  (target >= 0.04x)' : '';
      console.log(`${name.padEnd(9)} ${rps.toFixed(0).padStart(7)} req/s  p99 ${String(p99).padStart(4)} ms  ${(rps / base).toFixed(3)}x${target}`);
    }
  } finally {
    for (const child of processes) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

void main();
