import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { loadConfig } from 'src/config/app-config';
import { BullmqJobQueue, bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { runUntilExit, startWorker, WORKER, type RunningWorker } from './support/app-process';
import { insertSignedInUser } from './support/accounts';
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

  it('runs the credit housekeeping the web process runs without Redis: an expired lot is taken back', async () => {
    await insertSignedInUser(database.url, 'housekeeping@example.com');
    const db = new Client({ connectionString: database.url });
    await db.connect();
    let housekeeper: RunningWorker | undefined;
    try {
      const { rows: users } = await db.query<{ id: string }>(`select id from users where email = 'housekeeping@example.com'`);
      const userId = users[0]!.id;
      const { rows } = await db.query<{ id: string }>(
        `insert into credit_lots (user_id, source, source_ref, description, granted, remaining, expires_at)
         values ($1, 'admin', 'seed:worker', 'Worker test credits', 3, 3, now() + interval '1 day') returning id`,
        [userId],
      );
      await db.query(`insert into credit_events (user_id, kind, credits, lot_id, description) values ($1, 'grant', 3, $2, 'Worker test credits')`, [userId, rows[0]!.id]);
      await db.query(`update credit_lots set expires_at = now() - interval '1 second' where id = $1`, [rows[0]!.id]);
      housekeeper = await startWorker({
        DATABASE_URL: database.url,
        REDIS_URL,
        REDIS_KEY_PREFIX: `${keyPrefix}housekeeping:`,
        NODE_ENV: 'production',
        HAS_LOGIN: 'true',
        HAS_PAYMENT: 'true',
        TEST_PAYMENTS: 'true',
      });
      // The worker's own log: no web process runs here whose housekeeping could pass for it.
      await until('the worker to record the expiry', () => /Housekeeping: 1 lot\(s\) expired/.test(housekeeper!.output()));
      const { rows: events } = await db.query(`select credits from credit_events where lot_id = $1 and kind = 'expire'`, [rows[0]!.id]);
      expect(events).toEqual([{ credits: -3 }]);
    } finally {
      if (housekeeper) expect(await housekeeper.stop()).toBe(0);
      await db.end();
    }
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
