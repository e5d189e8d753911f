import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { loadConfig } from 'src/config/app-config';
import { BullmqJobQueue, bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { runUntilExit, startWorker, WORKER, type RunningWorker } from './support/app-process';
import { startMailSink, type MailSink } from './support/mail-sink';
import { createTestDatabase, REDIS_URL, type TestDatabase } from './support/services';
import { until } from './support/until';

const mail = (to: string, subject: string, link: string) => ({ to, subject, text: `Open ${link}`, html: `<a href="${link}">Open</a>` });

describe('the built worker process', () => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:`;
  let database: TestDatabase;
  let sink: MailSink;
  let worker: RunningWorker | undefined;
  let producer: BullmqJobQueue;
  let redis: Redis;

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    // The worker never migrates (the web process or `npm run migrate` does): a migrated database,
    // as after a deploy's migrate step (that step itself is npm-scripts.e2e's `npm run migrate`).
    database = await createTestDatabase();
    sink = await startMailSink();
    sink.state.hold.add('slow@example.com');
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
    const { code, output } = await runUntilExit({ DATABASE_URL: database.url }, { script: WORKER });
    expect(output).toContain('REDIS_URL is not set: the web process (npm start) runs background jobs itself');
    expect(code).toBe(0);
  });

  it('with REDIS_URL but the embedded database, refuses with a clear message', async () => {
    const { code, output } = await runUntilExit({ REDIS_URL, REDIS_KEY_PREFIX: keyPrefix }, { script: WORKER });
    expect(output).toContain('The worker needs DATABASE_URL');
    expect(code).toBe(1);
  });
});
