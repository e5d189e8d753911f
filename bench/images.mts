/**
 * npm run bench:images — two parts, chosen with BENCH_PARTS (default `converter,e2e`):
 *
 * `converter`: the AI upscaler alone (OnnxUpscaler of the build, over dist/models), one child
 * process per case, so each reports its own peak RSS: for ai-2x (CUnet), ai-2x-fast (upconv_7) and
 * ai-4x (CUnet twice), a 1920x1080 and a 2048x2048-class input (960x540 and 1024x1024 for 4x, whose
 * bound is 1024 px) with IMAGE_THREADS=1 and 2: CPU-seconds (user + sys of the process, all threads)
 * per output megapixel, wall time, the speed-up from 1 to 2 threads, and peak RSS. The classic styles
 * run on sharp in the converter adapter (the pipeline's), not here. Trim it with
 * BENCH_CONVERSIONS=ai-2x,ai-2x-fast,ai-4x, BENCH_SIZES=1080,2048 and BENCH_THREADS=1,2; BENCH_NOISE=1
 * runs each first pass with a denoising model.
 *
 * `e2e`: the image tool under a batch: 20 jobs of a 512x512 JPEG converted with AI
 * upscale 2x (waifu2x CUnet) by one worker. Prints the end-to-end latency (POST /api/v1/images until
 * GET /api/v1/images/:id says succeeded) p50 and p95, the share of it that is the conversion itself
 * (the same decoded image converted alone on the worker's core, after the batch, by the same
 * adapters of the build), and the level page's throughput while the
 * worker converts, as a ratio of its idle throughput measured in the same run: the jobs run in
 * rounds, with idle windows before, between and after them.
 *
 * The built web process and one worker run as real processes on PostgreSQL (BENCH_DATABASE_URL; a
 * database of its own, dropped afterwards) and Redis (BENCH_REDIS_URL; a key prefix of its own,
 * deleted afterwards), sharing a temporary DATA_DIR. Four users submit in turn, one job in flight
 * at a time (closed loop), so a latency is a job's own time with no queue in front of it.
 *
 * Pinning (BENCH_PINNING, 2 cores): `split` (default) puts the web process and the load generator
 * on core 0 and the worker on core 1, the deployment the worker is built for (one conversion per
 * core): both throughput phases give the web process the same share of core 0, so the ratio shows
 * what the busy worker takes from it through everything it does not pin (memory, PostgreSQL,
 * Redis, the polling). `shared` puts web and worker on core 0 and the load on core 1: a one-core
 * server, where the scheduler decides. `none`: no taskset.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import sharp from 'sharp';
import type { ImageJobView } from '../src/contracts/images.ts';
import { hasTaskset, ROOT, waitFor, WEB_NODE_FLAGS } from './support.mts';

const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 20;
const USERS = 4;
// 200 ms: a job is about 6 s, and a user polling faster than 4 times a second meets the 240-a-minute limit of GET /api/v1/images/:id.
const POLL_MS = 200;
const CONVERSION = 'ai-2x';
const PAGE = '/levels/27';
const PORT = 3301;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const GOALS = { p50Seconds: 10, ratio: 0.6 };
// What a browser sends for a page.
const PAGE_HEADERS = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-encoding': 'br, gzip' };
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN_EMAIL = 'bench-admin@example.com';

const LAYOUTS = {
  split: { web: '0', worker: '1', load: '0', says: 'web process and load generator on core 0, worker on core 1' },
  shared: { web: '0', worker: '0', load: '1', says: 'web process and worker share core 0, load generator on core 1' },
  none: { web: '', worker: '', load: '', says: 'no pinning: the scheduler places everything on both cores' },
} as const;
const PINNING = (process.env.BENCH_PINNING ?? 'split') as keyof typeof LAYOUTS;
if (!Object.hasOwn(LAYOUTS, PINNING)) throw new Error(`BENCH_PINNING is one of ${Object.keys(LAYOUTS).join(', ')}`);
const CORES = hasTaskset ? LAYOUTS[PINNING] : LAYOUTS.none;
// This process submits and polls: it sits with the load generator.
if (CORES.load) spawnSync('taskset', ['-cp', CORES.load, String(process.pid)]);

interface Running {
  child: ChildProcess;
  /** The last few KB it wrote, for the error message when it dies. */
  output(): string;
}

/** `node ...args` as a real process, pinned to `cores` when given, with only PATH, HOME and `env`. */
function run(args: string[], env: Record<string, string>, cores: string): Running {
  const command = cores ? 'taskset' : process.execPath;
  const argv = cores ? ['-c', cores, process.execPath, ...args] : args;
  const child = spawn(command, argv, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => output };
}

async function stop({ child }: Running): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface Window {
  start: number;
  end: number;
  rps: number;
  p99: number;
  /** CPU each watched process used over the window, in cores. */
  cpu: number[];
}

// autocannon in a process of its own, so its event loop never delays this process's polling; it
// reads the watched processes' CPU time (/proc) at the start and end of its own window.
const LOAD_SCRIPT = `
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');
const pids = process.env.PIDS.split(',');
// utime + stime of the whole process, in clock ticks (100 a second), from the fields after "(comm)".
const ticks = () => pids.map((pid) => {
  const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
});
const before = ticks();
const start = Date.now();
autocannon({ url: process.env.URL, connections: Number(process.env.CONNECTIONS), duration: Number(process.env.SECONDS), headers: JSON.parse(process.env.HEADERS) }, (error, r) => {
  if (error) throw error;
  const end = Date.now();
  const cpu = ticks().map((t, i) => (t - before[i]) / 100 / ((end - start) / 1000));
  process.stdout.write(JSON.stringify({ start, end, rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpu }));
});
`;

// The conversion alone, as the worker runs it: decoded (and bounded) by the codec, converted by the
// ONNX and sharp converter of the build, three times after a warm-up; prints the median in ms.
const CONVERSION_SCRIPT = `
// Inside a function: top-level consts of an -e script would be seen (in their dead zone) by the
// decorator metadata of the modules it requires, which look their constructor types up by name.
(async () => {
  const { join } = require('node:path');
  const adapters = join(process.env.ROOT, 'dist/server/src/modules/image-tool/adapters');
  const codec = require(join(adapters, 'sharp/sharp-image-codec.adapter.js'));
  const composite = require(join(adapters, 'onnx-sharp-image-converter.adapter.js'));
  const onnx = require(join(adapters, 'onnx/onnx-upscaler.js'));
  const styles = require(join(adapters, 'sharp/sharp-styles.js'));
  const { CONVERSIONS } = require(join(process.env.ROOT, 'dist/server/src/modules/image-tool/domain/conversions.js'));
  const conversion = process.env.CONVERSION;
  const { image } = await new codec.SharpImageCodec().decode(require('node:fs').readFileSync(process.env.JPEG), CONVERSIONS[conversion].maxInputSide);
  const converter = new composite.OnnxSharpImageConverter(onnx.OnnxUpscaler.inBuild(process.env.ROOT), new styles.SharpStyles());
  const times = [];
  for (let i = 0; i < 4; i++) {
    const start = performance.now();
    await converter.convert(image, conversion, new AbortController().signal);
    if (i > 0) times.push(performance.now() - start);
  }
  await converter.onApplicationShutdown();
  process.stdout.write(String(times.sort((a, b) => a - b)[1]));
})();
`;

/** One window of load on the level page; null when `stop` aborts it before its end. */
async function loadWindow(seconds: number, watch: number[], stop?: AbortSignal): Promise<Window | null> {
  if (stop?.aborted) return null;
  const load = run(['-e', LOAD_SCRIPT], {
    NODE_PATH: join(ROOT, 'node_modules'),
    URL: `${ORIGIN}${PAGE}`,
    CONNECTIONS: String(CONNECTIONS),
    SECONDS: String(seconds),
    HEADERS: JSON.stringify(PAGE_HEADERS),
    PIDS: watch.join(','),
  }, CORES.load);
  loads.add(load);
  const abort = () => load.child.kill('SIGTERM');
  stop?.addEventListener('abort', abort, { once: true });
  const code = await new Promise<number | null>((resolve) => load.child.once('close', (exitCode) => resolve(exitCode)));
  stop?.removeEventListener('abort', abort);
  loads.delete(load);
  if (code !== 0 && stop?.aborted) return null;
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${load.output()}`);
  const result = JSON.parse(load.output()) as Window & { non2xx: number; errors: number };
  if (result.non2xx || result.errors) throw new Error(`${PAGE}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}
const loads = new Set<Running>();

/** A photo-like 512x512 JPEG (q85): sky and ground gradients, a wavy horizon, shaded balls, buildings with windows, grain. */
async function photoLikeJpeg(side = 512): Promise<Buffer> {
  let seed = 0x2f6b3a91;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const grain = () => (random() + random() + random() - 1.5) * 9;
  const balls = Array.from({ length: 9 }, () => ({ x: random() * side, y: side * (0.5 + random() * 0.5), r: 12 + random() * 45, rgb: [80 + random() * 175, 60 + random() * 150, 40 + random() * 150] }));
  const buildings = Array.from({ length: 6 }, (_, i) => ({ x: i * 85 + random() * 30, w: 35 + random() * 40, top: side * (0.15 + random() * 0.3), shade: 90 + random() * 90 }));
  const data = Buffer.alloc(side * side * 3);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const horizon = side * 0.55 + 18 * Math.sin(x / 41) + 7 * Math.sin(x / 11 + 1.3);
      let rgb: number[];
      if (y < horizon) {
        const t = y / horizon;
        rgb = [70 + 130 * t, 120 + 95 * t, 205 + 30 * t];
      } else {
        const t = (y - horizon) / (side - horizon);
        const texture = 14 * Math.sin(x * 0.31 + y * 0.17) * Math.sin(y * 0.09);
        rgb = [95 - 45 * t + texture, 115 - 50 * t + texture, 55 - 25 * t];
      }
      for (const b of buildings) {
        if (x >= b.x && x < b.x + b.w && y >= b.top && y < horizon + 6) {
          const lit = (x - b.x) % 12 > 4 && (y - b.top) % 16 > 6 && (x - b.x) > 3 && (x - b.x) < b.w - 3;
          const side3d = (x - b.x) / b.w;
          rgb = lit ? [235, 215, 140] : [b.shade * (1 - 0.3 * side3d), b.shade * (1 - 0.3 * side3d), b.shade * 1.05 * (1 - 0.3 * side3d)];
        }
      }
      for (const b of balls) {
        const d = Math.hypot(x - b.x, y - b.y) / b.r;
        if (d < 1) {
          const light = 0.45 + 0.55 * Math.max(0, 1 - Math.hypot(x - (b.x - b.r / 3), y - (b.y - b.r / 3)) / b.r);
          rgb = b.rgb.map((c) => c * light);
        }
      }
      const noise = grain();
      for (let c = 0; c < 3; c++) data[(y * side + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(rgb[c]! + noise + grain() / 3)));
    }
  }
  return sharp(data, { raw: { width: side, height: side, channels: 3 } }).blur(0.6).jpeg({ quality: 85 }).toBuffer();
}

/** A confirmed account and a live session, written into the database (as test/support/accounts.ts does); returns the bearer token. */
async function signedInUser(db: pg.Client, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await db.query<{ id: string }>(`insert into users (email, password_hash, confirmed_at, created_at) values ($1, null, now(), now()) returning id`, [email]);
  await db.query(`insert into sessions (user_id, token_hash, created_at, last_used_at, expires_at) values ($1, $2, now(), now(), now() + interval '1 day')`, [
    rows[0]!.id,
    createHash('sha256').update(token).digest('hex'),
  ]);
  return token;
}

interface User {
  email: string;
  token: string;
  /** Its own client address (TRUST_PROXY): the per-address rate limits count per user, as for real users. */
  ip: string;
}

const api = (user: User, path: string, init: RequestInit = {}) =>
  fetch(`${ORIGIN}${path}`, { ...init, headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': user.ip, ...init.headers } });

/** Submits one conversion and polls until it succeeded; returns the job id and the time it took. */
async function convert(user: User, jpeg: Buffer): Promise<{ id: string; ms: number }> {
  const form = new FormData();
  form.append('conversion', CONVERSION);
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  const start = performance.now();
  const submitted = await api(user, '/api/v1/images', { method: 'POST', body: form });
  if (submitted.status !== 202) throw new Error(`POST /api/v1/images: ${submitted.status} ${await submitted.text()}`);
  const { id } = (await submitted.json()) as ImageJobView;
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const answer = await api(user, `/api/v1/images/${id}`);
    if (!answer.ok) throw new Error(`GET /api/v1/images/${id}: ${answer.status} ${await answer.text()}`);
    const job = (await answer.json()) as ImageJobView;
    if (job.status === 'succeeded') return { id, ms: performance.now() - start };
    if (job.status === 'failed') throw new Error(`Job ${id} failed: ${JSON.stringify(job.error)}`);
    if (performance.now() - start > 90_000) throw new Error(`Job ${id} still ${job.status} after 90 s`);
  }
}

/** The page as the load generator gets it: its encoding and size on the wire. */
function pageOnTheWire(): Promise<{ encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(`${ORIGIN}${PAGE}`, { headers: PAGE_HEADERS }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve({ encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes }) : reject(new Error(`${PAGE}: ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

/** The share of both cores busy over `ms`, from /proc/stat: anything else running makes the figures unreliable. */
async function machineBusy(ms: number): Promise<number> {
  const sample = () => {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.map(Number);
    return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((a, b) => a + b, 0) };
  };
  const before = sample();
  await new Promise((r) => setTimeout(r, ms));
  const after = sample();
  return 1 - (after.idle - before.idle) / (after.total - before.total);
}

const statFields = (pid: number | 'self') => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
};

/**
 * CPU ticks (100 a second) of the whole machine and of what belongs to this run: this process and
 * its finished children (the load generator), the web process, the worker, PostgreSQL and Redis.
 * The difference over the batch is what other processes took.
 */
function cpuTicks(pids: number[]): { total: number; ours: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = fields.map(Number);
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!;
  const self = statFields('self');
  let ours = self[11]! + self[12]! + self[13]! + self[14]!;
  for (const pid of pids) {
    const f = statFields(pid);
    ours += f[11]! + f[12]!;
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm === 'redis-server') {
        const f = statFields(Number(entry));
        ours += f[11]! + f[12]!;
      }
    } catch {
      // gone meanwhile
    }
  }
  return { total, ours };
}

/** Nearest-rank percentile. */
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;
const median = (xs: number[]) => percentile(xs, 50);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (rps: number) => Math.round(rps).toLocaleString('en-US');
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');

async function main() {
  const othersBusy = await machineBusy(2_000);
  const dbName = `bench_${randomBytes(4).toString('hex')}`;
  const prefix = `bench${randomBytes(4).toString('hex')}:`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${dbName}"`).catch(async (error: unknown) => {
    await admin.end();
    throw error;
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-images-'));
  const url = new URL(DATABASE_URL);
  url.pathname = `/${dbName}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const processes: Running[] = [];

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all([...loads, ...processes].map(stop));
      await db.end().catch(() => undefined);
      await admin.query(`drop database if exists "${dbName}" with (force)`).catch((e: unknown) => console.error('could not drop the database:', e));
      await admin.end().catch(() => undefined);
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        for (let cursor = '0'; ; ) {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          if (keys.length) await redis.del(...keys);
          if ((cursor = next) === '0') break;
        }
      } catch (e) {
        console.error(`could not delete the Redis keys ${prefix}*:`, e);
      } finally {
        redis.disconnect();
      }
      rmSync(dataDir, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`${signal}: stopping the processes and cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const env = {
      HOST: '127.0.0.1',
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      DATABASE_URL: url.toString(),
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      DATA_DIR: dataDir,
      HAS_LOGIN: 'true',
      HAS_PAYMENT: 'true',
      TEST_PAYMENTS: 'true',
      TRIAL_CREDITS: '0',
      ADMIN_EMAILS: ADMIN_EMAIL,
      TRUST_PROXY: 'true',
    };
    const web = run([...WEB_NODE_FLAGS, 'dist/server/main.js'], { ...env, MIGRATE_ON_START: 'true' }, CORES.web);
    processes.push(web);
    await waitFor(`${ORIGIN}/healthz`).catch((e: Error) => Promise.reject(new Error(`${e.message}:\n${web.output()}`)));
    // The web process migrated; the worker starts on the schema.
    const worker = run(['dist/server/worker.js'], env, CORES.worker);
    processes.push(worker);
    worker.child.once('exit', (code) => code !== 0 && !cleaning && console.error(`the worker exited with ${code}:\n${worker.output()}`));
    await db.connect();

    const adminUser: User = { email: ADMIN_EMAIL, token: await signedInUser(db, ADMIN_EMAIL), ip: '10.77.0.1' };
    const users: User[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `bench-user-${i}@example.com`;
      const user = { email, token: await signedInUser(db, email), ip: `10.77.1.${i + 1}` };
      const credits = Math.ceil(JOBS / USERS) + 1; // one more for the warm-up job
      const granted = await api(adminUser, '/api/v1/admin/credits', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, credits, reason: 'bench:images' }),
      });
      if (granted.status !== 201) throw new Error(`POST /api/v1/admin/credits: ${granted.status} ${await granted.text()}`);
      users.push(user);
    }

    const jpeg = await photoLikeJpeg();
    const wire = await pageOnTheWire();
    const watched = [web.child.pid!, worker.child.pid!];
    console.log(`bench:images — ${JOBS} jobs of ${CONVERSION} (AI upscale 2x, waifu2x CUnet) on a 512x512 JPEG (${(jpeg.length / 1024).toFixed(0)} KB, q85), one worker`);
    console.log(`pinning (${hasTaskset ? PINNING : 'no taskset'}): ${CORES.says}; PostgreSQL and Redis unpinned`);
    console.log(`submission: ${USERS} users in turn, one job in flight (the next is submitted when the previous result is stored); polled every ${POLL_MS} ms after each answer`);
    console.log(`before the start the machine was ${(othersBusy * 100).toFixed(0)}% busy${othersBusy > 0.05 ? ': other processes are running, the figures below are not reliable' : ''}`);
    console.log(`level page: ${PAGE}, accept-encoding "br, gzip" (${wire.encoding}, ${(wire.bytes / 1024).toFixed(1)} KB), ${CONNECTIONS} connections, ${SECONDS} s windows`);

    // Warm-up: the page, then one job (the worker loads the model on its first job); neither is counted.
    await loadWindow(SECONDS, watched);
    const warmUp = await convert(users[0]!, jpeg);
    console.log(`warm-up job (model load included, not counted): ${seconds(warmUp.ms)}`);

    // Rounds: an idle window, then a share of the jobs with load windows back to back while they
    // run (a window still running when the round's last job is stored is dropped), and a last idle
    // window: idle and busy windows interleave, so drift and noise reach both alike.
    const idle: Window[] = [(await loadWindow(SECONDS, watched))!];
    const busyWindows: Window[] = [];
    const jobs: { id: string; ms: number }[] = [];
    const measureStart = Date.now();
    const ticksAtStart = cpuTicks(watched);
    for (let round = 0; round < ROUNDS; round++) {
      const stopLoad = new AbortController();
      const loading = (async () => {
        for (let w; (w = await loadWindow(SECONDS, watched, stopLoad.signal)); ) busyWindows.push(w);
      })();
      loading.catch(() => undefined); // its error is thrown where it is awaited, below
      try {
        for (let i = Math.round((round * JOBS) / ROUNDS); i < Math.round(((round + 1) * JOBS) / ROUNDS); i++) jobs.push(await convert(users[i % USERS]!, jpeg));
      } finally {
        stopLoad.abort();
        await loading;
      }
      idle.push((await loadWindow(SECONDS, watched))!);
    }
    const ticksAtEnd = cpuTicks(watched);
    const othersCores = (ticksAtEnd.total - ticksAtStart.total - (ticksAtEnd.ours - ticksAtStart.ours)) / 100 / ((Date.now() - measureStart) / 1000);

    // When the worker was converting, from the job rows (same clock: one machine).
    const { rows } = await db.query<{ id: string; created_at: Date; started_at: Date; finished_at: Date }>(
      `select id, created_at, started_at, finished_at from image_jobs where id = any($1)`,
      [jobs.map((j) => j.id)],
    );
    const busy = rows.map((r) => [r.started_at.getTime(), r.finished_at.getTime()] as const);
    const busyShare = (w: Window) => busy.reduce((sum, [s, e]) => sum + Math.max(0, Math.min(e, w.end) - Math.max(s, w.start)), 0) / (w.end - w.start);
    const counted = busyWindows;
    if (!counted.length) throw new Error('No load window fell inside a round: raise BENCH_JOBS or lower BENCH_SECONDS');

    const latencies = jobs.map((j) => j.ms);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const inWorker = rows.map((r) => r.finished_at.getTime() - r.started_at.getTime());
    const waiting = rows.map((r) => r.started_at.getTime() - r.created_at.getTime());
    const idleRps = median(idle.map((w) => w.rps));
    const busyRps = median(counted.map((w) => w.rps));
    const ratio = busyRps / idleRps;
    const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(' ');
    const meanOf = (ws: Window[], i: number) => ws.reduce((s, w) => s + w.cpu[i]!, 0) / ws.length;

    console.log('');
    console.log(`end-to-end latency, ${jobs.length} jobs: p50 ${seconds(p50)}, p95 ${seconds(p95)} (min ${seconds(Math.min(...latencies))}, max ${seconds(Math.max(...latencies))})`);
    console.log(`  in the worker (job row started -> finished): median ${seconds(median(inWorker))}, max ${seconds(Math.max(...inWorker))}; accepted -> started: median ${seconds(median(waiting))}`);
    console.log(`  each job, in order (s): ${list(latencies.map((ms) => ms / 1000), 1)}`);
    console.log(
      `level page idle:   ${rate(idleRps)} req/s, median of ${idle.length} windows between the rounds (min ${rate(Math.min(...idle.map((w) => w.rps)))}, max ${rate(Math.max(...idle.map((w) => w.rps)))}), p99 median ${median(idle.map((w) => w.p99))} ms`,
    );
    console.log(`  each window, in order (req/s): ${list(idle.map((w) => w.rps), 0)}`);
    console.log(
      `level page busy:   ${rate(busyRps)} req/s, median of ${counted.length} windows while jobs ran (min ${rate(Math.min(...counted.map((w) => w.rps)))}, max ${rate(Math.max(...counted.map((w) => w.rps)))}), p99 median ${median(counted.map((w) => w.p99))} ms; worker converting ${(100 * counted.reduce((s, w) => s + busyShare(w), 0) / counted.length).toFixed(0)}% of that time`,
    );
    console.log(`  each window, in order (req/s): ${list(counted.map((w) => w.rps), 0)}`);
    console.log(`CPU in cores: web process idle ${meanOf(idle, 0).toFixed(2)}, busy ${meanOf(counted, 0).toFixed(2)}; worker idle ${meanOf(idle, 1).toFixed(2)}, busy ${meanOf(counted, 1).toFixed(2)}`);
    console.log(`other processes on the machine while measuring: ${Math.max(0, othersCores).toFixed(2)} cores${othersCores > 0.1 ? ' (not an idle machine: the figures are not reliable)' : ''}`);
    // The conversion alone, on the worker's core with the web process and the worker stopped.
    await Promise.all(processes.map(stop));
    const jpegFile = join(dataDir, 'bench.jpg');
    writeFileSync(jpegFile, jpeg);
    const alone = run(['-e', CONVERSION_SCRIPT], { ROOT, JPEG: jpegFile, CONVERSION }, CORES.worker);
    const aloneCode = await new Promise<number | null>((resolve) => alone.child.once('close', resolve));
    if (aloneCode !== 0) throw new Error(`the conversion alone exited with ${aloneCode}: ${alone.output()}`);
    const conversionMs = Number(alone.output());
    console.log(`the conversion itself (decoded 512x512 converted alone on the worker's core, median of 3): ${seconds(conversionMs)}, ${((100 * conversionMs) / p50).toFixed(0)}% of the p50; the rest is decoding, PNG encoding, storage, the database, the queue and polling`);

    console.log('');
    console.log(`p50 ${seconds(p50)}  (goal < ${GOALS.p50Seconds} s for AI 2x): ${verdict(p50 < GOALS.p50Seconds * 1000)}`);
    console.log(`level page busy / idle ${ratio.toFixed(2)}x  (goal >= ${GOALS.ratio}x while the worker is busy): ${verdict(ratio >= GOALS.ratio)}`);
  } finally {
    await cleanup();
  }
}


/** The AI conversions by the models they run (modelsFor in src/modules/image-tool/domain/conversions.ts, no denoising) and the input sizes measured. */
const AI_CASES = {
  'ai-2x': { models: ['waifu2x-cunet-x2'], sizes: { 1080: [1920, 1080], 2048: [2048, 2048] } },
  'ai-2x-fast': { models: ['waifu2x-upconv7-x2'], sizes: { 1080: [1920, 1080], 2048: [2048, 2048] } },
  'ai-4x': { models: ['waifu2x-cunet-x2', 'waifu2x-cunet-x2'], sizes: { 1080: [960, 540], 2048: [1024, 1024] } },
} as const;
const listEnv = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map((v) => v.trim()).filter(Boolean);

// One case in a process of its own: the upscaler of the build on raw RGB pixels, after a warm-up
// that starts every thread and loads the models; prints CPU (all threads), wall time and peak RSS.
const UPSCALER_SCRIPT = `
(async () => {
  const { join } = require('node:path');
  const { readFileSync } = require('node:fs');
  const { OnnxUpscaler } = require(join(process.env.ROOT, 'dist/server/src/modules/image-tool/adapters/onnx/onnx-upscaler.js'));
  const [width, height] = [Number(process.env.WIDTH), Number(process.env.HEIGHT)];
  const data = new Uint8Array(readFileSync(process.env.PIXELS));
  const models = process.env.MODELS.split(',');
  const upscaler = OnnxUpscaler.inBuild(process.env.ROOT, { threads: Number(process.env.THREADS), sessionOptions: JSON.parse(process.env.SESSION_OPTIONS || '{}'), ...(process.env.TILE ? { tileSize: Number(process.env.TILE) } : {}) });
  const never = new AbortController().signal;
  await upscaler.upscale({ data: data.subarray(0, 96 * 96 * 3), width: 96, height: 96 }, models, never);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const out = await upscaler.upscale({ data, width, height }, models, never);
  const wall = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  await upscaler.close();
  process.stdout.write(JSON.stringify({ cpu: (used.user + used.system) / 1e6, wall, width: out.width, height: out.height, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
})();
`;

interface UpscalerRun {
  cpu: number;
  wall: number;
  width: number;
  height: number;
  maxRssMb: number;
}

async function upscalerRun(env: Record<string, string>): Promise<UpscalerRun> {
  // On every core: this process sits pinned with the load generator, and a child inherits its affinity.
  const child = run(['-e', UPSCALER_SCRIPT], { ROOT, ...env }, hasTaskset ? cpus().map((_, i) => i).join(',') : '');
  const code = await new Promise<number | null>((resolve) => child.child.once('close', resolve));
  if (code !== 0) throw new Error(`the upscaler run (${JSON.stringify(env)}) exited with ${code}: ${child.output()}`);
  return JSON.parse(child.output()) as UpscalerRun;
}

/** The converter part: per conversion, size and thread count, in processes of their own on every core (threads=2 needs two). */
async function converterPart(): Promise<void> {
  const conversions = listEnv('BENCH_CONVERSIONS', Object.keys(AI_CASES).join(',')) as (keyof typeof AI_CASES)[];
  const sizes = listEnv('BENCH_SIZES', '1080,2048') as ('1080' | '2048')[];
  const threads = listEnv('BENCH_THREADS', '1,2').map(Number);
  for (const c of conversions) if (!Object.hasOwn(AI_CASES, c)) throw new Error(`BENCH_CONVERSIONS: ${c} is not one of ${Object.keys(AI_CASES).join(', ')}`);
  const busy = await machineBusy(2_000);
  console.log(`bench:images converter — OnnxUpscaler of the build, 128 px tiles, one process per case (peak RSS is the process's); a photo-like picture${process.env.BENCH_NOISE ? `; first pass denoising (noise${process.env.BENCH_NOISE})` : ''}`);
  console.log(`before the start the machine was ${(busy * 100).toFixed(0)}% busy${busy > 0.05 ? ': other processes are running, the wall times below are not reliable (CPU-seconds less so)' : ''}`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-upscaler-'));
  try {
    // The 512 px scene, enlarged: the models cost the same on any content (dense convolutions).
    const photo = await sharp(await photoLikeJpeg()).removeAlpha().toBuffer();
    for (const conversion of conversions) {
      // BENCH_NOISE=1..3: the first pass denoises (waifu2x's noise<N> model), as a JPEG input's job runs;
      // with ai-4x each thread then holds two models, the most memory a job takes.
      const noise = process.env.BENCH_NOISE;
      if (noise && !/^[0-3]$/.test(noise)) throw new Error('BENCH_NOISE is a waifu2x noise level, 0 to 3');
      const [first, ...rest] = AI_CASES[conversion].models;
      const models = [noise ? first.replace(/-x2$/, `-noise${noise}-x2`) : first, ...rest];
      for (const size of sizes) {
        const [width, height] = AI_CASES[conversion].sizes[size];
        const pixels = join(dir, `${width}x${height}.rgb`);
        writeFileSync(pixels, await sharp(photo).resize(width, height, { fit: 'fill' }).raw().toBuffer());
        const runs = new Map<number, UpscalerRun>();
        for (const n of threads) {
          const r = await upscalerRun({ PIXELS: pixels, WIDTH: String(width), HEIGHT: String(height), MODELS: models.join(','), THREADS: String(n), SESSION_OPTIONS: process.env.BENCH_SESSION_OPTIONS ?? '', TILE: process.env.BENCH_TILE ?? '' });
          runs.set(n, r);
          const mp = (r.width * r.height) / 1e6;
          console.log(
            `${conversion.padEnd(10)} ${`${width}x${height}`.padEnd(9)} -> ${r.width}x${r.height}, threads=${n}: ${(r.cpu / mp).toFixed(2)} CPU-s per output MP (${r.cpu.toFixed(1)} CPU-s), wall ${r.wall.toFixed(1)} s, peak RSS ${Math.round(r.maxRssMb)} MB`,
          );
        }
        const [one, two] = [runs.get(1), runs.get(2)];
        if (one && two) console.log(`${''.padEnd(10)} ${`${width}x${height}`.padEnd(9)} speed-up 1 -> 2 threads: ${(one.wall / two.wall).toFixed(2)}x wall, CPU ${(two.cpu / one.cpu).toFixed(2)}x of one thread's`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function parts() {
  const chosen = listEnv('BENCH_PARTS', 'converter,e2e');
  for (const part of chosen) if (!['converter', 'e2e'].includes(part)) throw new Error(`BENCH_PARTS: ${part} is not converter or e2e`);
  if (chosen.includes('converter')) await converterPart();
  if (chosen.includes('converter') && chosen.includes('e2e')) console.log('');
  if (chosen.includes('e2e')) await main();
}

/** Set on SIGINT or SIGTERM: what fails while the processes are stopped is no news. */
let interrupted = false;

parts().catch((error: unknown) => {
  if (interrupted) return;
  console.error(error);
  process.exitCode = 1;
});
