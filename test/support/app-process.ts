import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { until } from './until';

export const ROOT = resolve(__dirname, '../..');
const MAIN = resolve(ROOT, 'dist/server/main.js');
export const WORKER = resolve(ROOT, 'dist/server/worker.js');
export const DB_CLI = resolve(ROOT, 'dist/server/src/cli/db.js');
export const CONTENT_CLI = resolve(ROOT, 'dist/server/src/cli/content.js');

/**
 * Ports the tests give their servers: below Linux's ephemeral range (32768-60999), from which the
 * kernel takes listen(0)'s pick and the local port of every outgoing connection. A port found free
 * there could be taken by any connection (to PostgreSQL, Redis, Chromium's loads) in the seconds
 * before a starting app binds it: an embedded-database start-up lost its port that way (EADDRINUSE).
 */
const TEST_PORTS = { from: 20_000, to: 32_000 } as const;

/** A port nothing listens on now, picked at random below the ephemeral range (workers and runs side by side rarely meet, and check). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = randomInt(TEST_PORTS.from, TEST_PORTS.to);
    if (await canListen(port)) return port;
  }
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    if (server.listening) await new Promise((done) => server.close(done));
  }
}

export interface RunningProcess {
  process: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  output(): string;
  /** What it wrote to stdout: the JSON log. */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code (null if it had to be killed after 30 s). */
  stop(): Promise<number | null>;
  /**
   * Resolves once stdout holds `text` (a line may be logged after the process answers, and a pipe
   * delivers it later still); fails naming the text after `timeoutMs`.
   */
  logged(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

export interface RunningApp extends RunningProcess {
  url: string;
  port: number;
}

export type RunningWorker = RunningProcess;

/**
 * Every process the tests started that is still running. A test file that ends without stopping
 * one (a hook timed out, jest stopped the worker) must not leave it behind: the test worker kills
 * them as it exits.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/**
 * The tests start the built app some sixty times: V8's code cache, shared by those processes, spares
 * each the compiling of the same modules (Node writes it atomically; a stale entry is recompiled).
 */
const NODE_COMPILE_CACHE = resolve(ROOT, 'var/compile-cache');

/** Runs a built script as a real process with only the given environment (plus PATH and HOME). */
function spawnBuilt(script: string, args: string[], env: Record<string, string>): RunningProcess & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_COMPILE_CACHE, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  running.add(child);
  // 'close', not 'exit': the process's pipes are drained by then, so its last lines are in `output`.
  const exited = once(child, 'close').then(([code]) => {
    running.delete(child);
    return code as number | null;
  });
  return {
    process: child,
    exited,
    output: () => output,
    stdout: () => stdout,
    async logged(text, timeoutMs) {
      await until(`the log line ${String(text)}`, () => (typeof text === 'string' ? stdout.includes(text) : text.test(stdout)), timeoutMs);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Waits until `ready()` holds, failing (and killing the process) if it exits or 120 s pass: a
 * safety net wide enough for the embedded database's start on a machine whose other core is busy.
 */
async function waitUntilReady(running: RunningProcess, what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await ready())) {
    if (running.process.exitCode !== null) throw new Error(`The ${what} exited with ${running.process.exitCode}:\n${running.output()}`);
    if (Date.now() > deadline) {
      running.process.kill('SIGKILL');
      throw new Error(`The ${what} was not ready within 120 s:\n${running.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The tests' web processes and workers run on one machine: a DATA_DIR they share is a shared image
 * store. (A test about the refusal without it passes IMAGE_STORE_SHARED itself.)
 */
const SHARED_FILES = { IMAGE_STORE_SHARED: 'true' };

/**
 * Runs the production build (`node dist/server/main.js`) as a real process with only the
 * given environment (plus PATH and HOME), and waits until it answers /healthz.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = spawnBuilt(MAIN, [], { HOST: '127.0.0.1', PORT: String(port), ...SHARED_FILES, ...env });
  await waitUntilReady(running, 'app', () => fetch(`${url}/healthz`).then((r) => r.ok, () => false));
  return { ...running, url, port };
}

/** Runs the built worker (`node dist/server/worker.js`) and waits until it logs that it is ready. */
export async function startWorker(env: Record<string, string>): Promise<RunningWorker> {
  const running = spawnBuilt(WORKER, [], { ...SHARED_FILES, ...env });
  await waitUntilReady(running, 'worker', () => running.stdout().includes('Worker ready'));
  return running;
}

/**
 * Runs a built script expecting it to exit on its own (the app refusing to start, by default);
 * resolves with its exit code and output. Killed after 30 s.
 */
export async function runUntilExit(
  env: Record<string, string>,
  { script = MAIN, args = [] }: { script?: string; args?: string[] } = {},
): Promise<{ code: number | null; output: string }> {
  const running = spawnBuilt(script, args, env);
  const timer = setTimeout(() => running.process.kill('SIGKILL'), 30_000);
  const code = await running.exited;
  clearTimeout(timer);
  return { code, output: running.output() };
}
