import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
const MAIN = resolve(ROOT, 'dist/server/src/main.js');

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export interface RunningApp {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  output(): string;
  /** What it wrote to stdout: the JSON log. */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs the production build (`node dist/server/src/main.js`) as a real process with only the
 * given environment (plus PATH and HOME), and waits until it answers /healthz.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The app did not answer /healthz within 60 s:\n${output}`);
    }
    const alive = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (alive) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    process: child,
    output: () => output,
    stdout: () => stdout,
    /** SIGTERM, and SIGKILL if it has not exited after 30 s (then the code is null). */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs the app expecting it to refuse to start; resolves with its exit code and output. */
export async function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number | null, output };
}

const WORKER = resolve(ROOT, 'dist/server/src/worker.js');

export interface RunningWorker {
  process: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  output(): string;
  /** What it wrote to stdout: the JSON log. */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code (null if it had to be killed after 30 s). */
  stop(): Promise<number | null>;
}

/**
 * Runs the built worker (`node dist/server/src/worker.js`) with only the given environment (plus
 * PATH and HOME), and waits until it logs that it is ready.
 */
export async function startWorker(env: Record<string, string>): Promise<RunningWorker> {
  const child = spawn(process.execPath, [WORKER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);

  const deadline = Date.now() + 60_000;
  while (!stdout.includes('Worker ready')) {
    if (child.exitCode !== null) throw new Error(`The worker exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The worker was not ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    process: child,
    output: () => output,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
