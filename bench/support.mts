/** Helpers the benchmarks share: pinned server processes, readiness, bounded load, medians. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createServer } from 'node:net';

export const ROOT = resolve(import.meta.dirname, '..');
export const hasTaskset = spawnSync('taskset', ['--version']).status === 0;

/** The web process's Node flags (its heap limits), as `npm start` and the Docker image pass them. */
export const WEB_NODE_FLAGS: string[] = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((arg) => arg.startsWith('--'));

/** Pins this process (the load generator) to core 1, leaving core 0 to the servers. */
export function pinLoadGenerator(): void {
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
}

/**
 * Runs `node ...args` pinned to core 0, with only PATH and the given environment, in the repository
 * (or `cwd`: another checkout's build). With `output`, its stdout and stderr are piped for the
 * caller to read (its logs).
 */
export function serve(args: string[], env: Record<string, string>, options: { output?: boolean; cwd?: string } = {}): ChildProcess {
  const command = hasTaskset ? 'taskset' : process.execPath;
  const argv = hasTaskset ? ['-c', '0', process.execPath, ...args] : args;
  return spawn(command, argv, { cwd: options.cwd ?? ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: options.output ? ['ignore', 'pipe', 'pipe'] : 'ignore' });
}

/**
 * A PostgreSQL database of the run's own on BENCH_DATABASE_URL's server (default the local test
 * server): its name, its URL, and drop() to remove it afterwards. Empty (the bench's first start
 * migrates it and imports the content), or a copy of BENCH_TEMPLATE_DATABASE: the tests pass their
 * run's template, already migrated and holding the content, so a bench they only check for its
 * figures spends its CPU on them.
 */
export async function benchDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const template = process.env.BENCH_TEMPLATE_DATABASE;
  if (template !== undefined && !/^\w{1,63}$/.test(template)) throw new Error(`BENCH_TEMPLATE_DATABASE must be a database name (letters, digits, _), not ${JSON.stringify(template)}`);
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  return { name, url: url.toString(), drop };
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** What a browser asks for (`br, gzip`), or no compression. */
export type Encoding = 'identity' | 'br, gzip';

/** autocannon for a fixed time (bounded), uncompressed unless told; any non-2xx answer fails the run. */
export async function load(url: string, seconds: number, connections = 20, encoding: Encoding = 'identity') {
  const headers = { 'accept-encoding': encoding };
  // autocannon ends a run on its next sample, once a second by default: a window under a second
  // (a check that a bench runs) samples more often, or 0.2 s would last a whole second.
  const window = seconds >= 1 ? { duration: seconds } : { duration: seconds, sampleInt: 50 };
  let result = await autocannon({ url, connections, ...window, headers });
  // A short window on a busy machine can end before any request does (the tests run 1 s windows):
  // then measure one request per connection instead, so the figures are finite.
  if (result.requests.total === 0) result = await autocannon({ url, connections, amount: connections, headers });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // Requests over the run's own duration: autocannon's per-second average reads 0 for a run under a second.
  return { rps: result.requests.total / Math.max(result.duration, 0.01), p99: result.latency.p99, requests: result.requests.total };
}

const CLOCK_TICKS_PER_MS = 100 / 1000; // USER_HZ, 100 on Linux

/** CPU time (user + system, all threads) a process has used so far, in ms; from /proc. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at ')'; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A plain Fastify server answering `html` at `path` from memory: the baseline of every benchmark. */
export const baselineServer = (path: string, port: number, withAssets = false) => `
const fastify = require('fastify')();
const html = Buffer.from(process.env.BENCH_HTML, 'base64');
${withAssets ? "fastify.register(require('@fastify/static'), { root: process.env.BENCH_CLIENT, prefix: '/', wildcard: false, index: false });" : ''}
fastify.get('${path}', (_req, reply) => reply.type('text/html; charset=utf-8').send(html));
fastify.listen({ port: ${port}, host: '127.0.0.1' });
`;

/**
 * A port nothing listens on now, at random below Linux's ephemeral range (32768-60999): a pick from
 * that range (listen(0)) can be taken by an outgoing connection before a starting server binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((done) => server.once('error', () => done(false)).listen(port, '127.0.0.1', () => done(true)));
    if (free) {
      await new Promise((done) => server.close(done));
      return port;
    }
  }
}

