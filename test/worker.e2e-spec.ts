import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from 'src/config/app-config';
import { BullmqJobQueue, bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { ROOT, startWorker, type RunningWorker } from './support/app-process';
import { createTestDatabase, REDIS_URL, type TestDatabase } from './support/services';

/** An SMTP server that keeps every message; mail to slow@ is answered only when `release()` is called. */
async function startSink() {
  const delivered: { to: string[]; raw: string }[] = [];
  let receiving = false;
  let release = () => undefined as void;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const accept = () => {
          delivered.push({ to, raw: raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
          callback();
        };
        if (!to.includes('slow@example.com')) return accept();
        receiving = true;
        release = accept;
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    receiving: () => receiving,
    release: () => release(),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the built worker expecting it to exit on its own; resolves with its exit code and output. */
async function runWorkerUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [resolve(ROOT, 'dist/server/src/worker.js')], {
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

const mail = (to: string, subject: string, link: string) => ({ to, subject, text: `Open ${link}`, html: `<a href="${link}">Open</a>` });

describe('the built worker process', () => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:`;
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let worker: RunningWorker | undefined;
  let producer: BullmqJobQueue;
  let redis: Redis;

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    database = await createTestDatabase();
    // The worker never migrates (the web process or `npm run migrate` does): migrate as a deploy would.
    const migrate = spawn(process.execPath, [resolve(ROOT, 'dist/server/src/cli/db.js'), 'migrate'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: database.url },
      stdio: 'ignore',
    });
    expect((await once(migrate, 'exit'))[0]).toBe(0);
    sink = await startSink();
    // The web side, as the web process has it: the BullMQ adapter with the same Redis and prefix.
    const config = loadConfig({}, { REDIS_URL, REDIS_KEY_PREFIX: keyPrefix });
    producer = new BullmqJobQueue(config, new JobRetryPolicy());
    await producer.onModuleInit();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  });

  afterAll(async () => {
    if (worker) await worker.stop();
    await producer?.onApplicationShutdown();
    if (redis) {
      for (let cursor = '0'; ; ) {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        if ((cursor = next) === '0') break;
      }
      redis.disconnect();
    }
    sink?.release();
    await sink?.close();
    await database?.drop();
    jest.restoreAllMocks();
  });

  /** Puts a message in the outbox (as MailOutbox.send does) and returns its id for the job. */
  async function outboxRow(message: ReturnType<typeof mail>): Promise<{ outboxId: string }> {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>(
        `insert into mail_outbox ("to", subject, text, html, created_at) values ($1, $2, $3, $4, now()) returning id`,
        [message.to, message.subject, message.text, message.html],
      );
      return { outboxId: rows[0]!.id };
    } finally {
      await db.end();
    }
  }

  it('sends queued mail, and on SIGTERM finishes the job in hand before exiting 0', async () => {
    worker = await startWorker({
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: keyPrefix,
      SMTP_URL: sink.url,
      MAIL_FROM: 'Guides <mail@guides.example>',
    });
    const link = 'https://guides.example/auth/confirm#token=worker_e2e_0123456789';
    await producer.enqueue('mail.send', await outboxRow(mail('player@example.com', 'Confirm your email', link)));
    const sent = await until('the mail', () => sink.delivered.find((m) => m.to.includes('player@example.com')));
    expect(sent.raw).toContain('Subject: Confirm your email');
    expect(sent.raw).toContain('From: Guides <mail@guides.example>');
    expect(sent.raw).toContain(link);

    // A job still running when SIGTERM arrives is finished, not dropped.
    await producer.enqueue('mail.send', await outboxRow(mail('slow@example.com', 'Slow', 'https://guides.example/slow')), { jobId: 'slow-1' });
    await until('the slow mail to reach the server', () => sink.receiving());
    const running = worker;
    worker = undefined;
    const stopped = running.stop();
    await until('the worker to start shutting down', () => running.stdout().includes('SIGTERM received'));
    expect(sink.delivered.find((m) => m.to.includes('slow@example.com'))).toBeUndefined();
    sink.release();
    expect(await stopped).toBe(0);
    expect(sink.delivered.find((m) => m.to.includes('slow@example.com'))).toBeDefined();
    const queue = new Queue('mail', { connection: redis, prefix: bullmqPrefix(loadConfig({}, { REDIS_KEY_PREFIX: keyPrefix })) });
    try {
      expect(await queue.getJob('slow-1')).toBeUndefined(); // completed (and removed), not left active
    } finally {
      await queue.close();
    }

    const output = running.output();
    expect(output).toContain('Worker ready');
    expect(output).not.toContain('worker_e2e_0123456789'); // links carry tokens: never logged
    expect(output).not.toContain('player@example.com');
  });

  it('without REDIS_URL, says the web process runs the jobs and exits 0', async () => {
    const { code, output } = await runWorkerUntilExit({ DATABASE_URL: database.url });
    expect(output).toContain('REDIS_URL is not set: the web process (npm start) runs background jobs itself');
    expect(code).toBe(0);
  });

  it('with REDIS_URL but the embedded database, refuses with a clear message', async () => {
    const { code, output } = await runWorkerUntilExit({ REDIS_URL, REDIS_KEY_PREFIX: keyPrefix });
    expect(output).toContain('The worker needs DATABASE_URL');
    expect(code).toBe(1);
  });
});
