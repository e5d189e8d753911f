import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig, type AppConfig } from 'src/config/app-config';
import { PlatformModule } from 'src/platform/platform.module';
import { EntityManager } from '@mikro-orm/postgresql';
import { MailGiveUps, MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { outboxJobId } from 'src/platform/mail/mikro-orm-mail-outbox.adapter';
import { OutboxRelay } from 'src/platform/outbox/outbox-relay';
import { OutboxMailSchema } from 'src/platform/mail/mail-outbox.entity';
import { MailModule } from 'src/platform/mail/mail.module';
import { bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { BullmqJobWorkers } from 'src/platform/queue/bullmq-job-workers';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { JOB_NAMES, type RetryPolicy } from 'src/platform/queue/jobs';
import { QueueModule } from 'src/platform/queue/queue.module';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { freePort } from './support/app-process';
import { startMailSink, type MailSink } from './support/mail-sink';
import { createTestDatabase, REDIS_URL, type TestDatabase } from './support/services';
import { until } from './support/until';

const message = (to: string, subject: string, link: string) => ({
  to,
  subject,
  text: `Confirm your email: ${link}`,
  html: `<p><a href="${link}">Confirm your email</a></p>`,
});

describe('background jobs on Redis with an SMTP server (mail waits in the PostgreSQL outbox)', () => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:`;
  // Small backoff for the test only (the registry's policy is 8 attempts from 5 s).
  const retry: RetryPolicy = { attempts: 5, backoff: { type: 'exponential', delayMs: 200 } };
  let sink: MailSink;
  let database: TestDatabase;
  let config: AppConfig;
  let web: TestingModule;
  let worker: TestingModule | undefined;
  let inspector: Queue;
  let inspectorClient: Redis;
  const logs: string[] = [];

  const build = async (withWorkers: boolean, appConfig = config) => {
    const app = await Test.createTestingModule({
      imports: [PlatformModule.forRoot(appConfig, { structuredLogs: false }), QueueModule, MailModule],
      providers: withWorkers
        ? [
            BullmqJobWorkers,
            // The worker refuses to start while a job of the registry has no processor; only mail is this test's.
            {
              provide: 'other-jobs-elsewhere',
              inject: [JobProcessors],
              useFactory: (p: JobProcessors) => {
                for (const name of JOB_NAMES.filter((job) => job !== 'mail.send')) p.register(name, () => Promise.reject(new Error('not in this test')));
              },
            },
          ]
        : [],
    })
      .overrideProvider(JobRetryPolicy)
      .useValue({ of: () => retry })
      .compile();
    await app.init();
    return app;
  };

  const env = (more: Record<string, string> = {}) => ({
    DATABASE_URL: database.url,
    MIGRATE_ON_START: 'true',
    REDIS_URL,
    REDIS_KEY_PREFIX: keyPrefix,
    SMTP_URL: sink.url,
    SITE_NAME: 'Jobs Test',
    ...more,
  });

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logs.push(String(args[0])));
    }
    sink = await startMailSink();
    database = await createTestDatabase();
    config = loadConfig({}, env());
    inspectorClient = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    inspector = new Queue('mail', { connection: inspectorClient, prefix: bullmqPrefix(config) });
    web = await build(false);
    worker = await build(true);
  });

  afterAll(async () => {
    await worker?.close();
    await web?.close();
    // Leave nothing of this run in Redis.
    await inspector?.obliterate({ force: true }).catch(() => undefined);
    await inspector?.close();
    if (inspectorClient) {
      for (let cursor = '0'; ; ) {
        const [next, keys] = await inspectorClient.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
        if (keys.length) await inspectorClient.del(...keys);
        if ((cursor = next) === '0') break;
      }
      inspectorClient.disconnect();
    }
    await sink?.close();
    await database?.drop();
    jest.restoreAllMocks();
  });

  /** A message in the outbox, queued under a job id the test chooses (MailOutbox.send picks its own). */
  async function queueMail(mail: ReturnType<typeof message>, jobId?: string): Promise<string> {
    const em = web.get(EntityManager).fork();
    const row = em.create(OutboxMailSchema, { ...mail, createdAt: new Date() });
    await em.flush();
    await web.get(JobQueue).enqueue('mail.send', { outboxId: row.id }, { jobId });
    return row.id;
  }

  const outboxHas = async (id: string) => (await web.get(EntityManager).fork().count(OutboxMailSchema, { id })) > 0;

  it('keeps its keys under the run prefix', async () => {
    await web.get(MailOutbox).send(message('prefix@example.com', 'Prefix check', 'https://guides.example/p'));
    await until('the delivery', () => sink.delivered.find((m) => m.to.includes('prefix@example.com')));
    expect(await inspectorClient.keys(`${keyPrefix}bull:mail:*`)).toContain(`${keyPrefix}bull:mail:meta`);
  });

  it('delivers a queued mail to the SMTP server through the worker', async () => {
    const link = 'https://guides.example/auth/confirm#token=deliver_0123456789';
    await web.get(MailOutbox).send(message('first@example.com', 'Confirm your email', link));
    const mail = await until('the delivery', () => sink.delivered.find((m) => m.to.includes('first@example.com')));
    // Redis only ever held the row's id; the row is gone once sent.
    await until('the outbox to empty', async () => ((await web.get(EntityManager).fork().count(OutboxMailSchema, { to: 'first@example.com' })) === 0 ? true : undefined));
    expect(mail.to).toEqual(['first@example.com']);
    expect(mail.raw).toContain('Subject: Confirm your email');
    expect(mail.raw).toContain('From: Jobs Test <no-reply@localhost>');
    expect(mail.raw).toContain(link);
  });

  it('retries a send the server refuses (451) with backoff until it is delivered', async () => {
    const before = sink.state.attempts;
    sink.state.rejectNext = 2;
    await queueMail(message('retry@example.com', 'Retried', 'https://guides.example/r'), 'retry-1');
    const mail = await until('the delivery', () => sink.delivered.find((m) => m.to.includes('retry@example.com')));
    expect(mail.raw).toContain('https://guides.example/r');
    expect(sink.state.attempts - before).toBe(3);
    // Logged by job name, id, attempt and SMTP codes: never the address or the link.
    expect(logs.filter((l) => l.includes('retry-1'))).toEqual([
      'Job mail.send retry-1 failed (attempt 1/5, Error EMESSAGE 451): retrying',
      'Job mail.send retry-1 failed (attempt 2/5, Error EMESSAGE 451): retrying',
    ]);
    expect(logs.join('\n')).not.toContain('retry@example.com');
    // Done jobs leave Redis (once the outbox row is deleted, just after the delivery).
    await until('the job to leave Redis', async () => ((await inspector.getJob('retry-1')) ? undefined : true));
  });

  it('does not retry a message the server rejects for good (550)', async () => {
    sink.state.unknownUsers.add('nobody@example.com');
    const before = sink.state.attempts;
    const rejected = await queueMail(message('nobody@example.com', 'Lost', 'https://guides.example/l'), 'rejected-1');
    await until('the failure', async () => (await inspector.getJobState('rejected-1')) === 'failed');
    expect((await inspector.getJob('rejected-1'))?.attemptsMade).toBe(1);
    expect(sink.state.attempts).toBe(before); // refused at RCPT TO: no DATA
    // The failure's handler logs after the job's state is stored: waited for.
    const line = 'Job mail.send rejected-1 failed (attempt 1/5, UnrecoverableError): giving up';
    await until('the giving-up line', () => logs.includes(line));
    expect(logs).toContain(line);
    // Kept as given up, with its last error, for /admin (and never handed over again).
    const givenUp = (await web.get(MailGiveUps).givenUp(20)).find((m) => m.id === rejected);
    expect(givenUp).toMatchObject({ subject: 'Lost', attempts: 1, lastError: 'MailRejectedError MAIL.REJECTED 550' });
    expect(await web.get(OutboxRelay).relay('mail', new Date(Date.now() + 6 * 60_000))).toBe(0);
  });

  it('keeps a job waiting for its retry when the worker stops, and a new worker delivers it', async () => {
    retry.backoff.delayMs = 2_000; // long enough to stop the worker during the backoff
    sink.state.rejectNext = 1;
    try {
      await queueMail(message('restart@example.com', 'After restart', 'https://guides.example/s'), 'restart-1');
      await until('the retry to be scheduled', async () => (await inspector.getJobState('restart-1')) === 'delayed');
      await worker!.close();
      worker = undefined;
      expect(await inspector.getJobState('restart-1')).toBe('delayed');
      expect(sink.delivered.find((m) => m.to.includes('restart@example.com'))).toBeUndefined();

      worker = await build(true);
      const mail = await until('the delivery', () => sink.delivered.find((m) => m.to.includes('restart@example.com')));
      expect(mail.raw).toContain('https://guides.example/s');
    } finally {
      retry.backoff.delayMs = 200;
    }
  });

  it('refuses a job quickly when Redis is unreachable; a mail is kept, its sender told it is, and the relay sends it later', async () => {
    const down = loadConfig({}, { DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_KEY_PREFIX: keyPrefix, SMTP_URL: sink.url });
    const producer = await build(false, down);
    try {
      const queue = producer.get(JobQueue);
      await expect(queue.enqueue('mail.send', { outboxId: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(QueueUnavailableError);
      // Through the outbox: the message is kept, which is all the caller needs (a sign-up answers
      // 202, so no retry sends a second link); the outage is logged.
      await expect(producer.get(MailOutbox).send(message('down@example.com', 'Down', 'https://guides.example/d'))).resolves.toBeUndefined();
      expect(logs.some((l) => /^Mail [0-9a-f-]+ kept in the outbox: the queue is unavailable/.test(l))).toBe(true);
    } finally {
      await producer.close();
    }
    expect(await web.get(EntityManager).fork().count(OutboxMailSchema, { to: 'down@example.com' })).toBe(1);
    expect(sink.delivered.find((m) => m.to.includes('down@example.com'))).toBeUndefined();

    // Where the jobs run, the relay queues what waited longer than five minutes.
    const relay = web.get(OutboxRelay);
    expect(await relay.relay('mail', new Date(Date.now() + 6 * 60_000))).toBeGreaterThanOrEqual(1);
    const mail = await until('the delivery', () => sink.delivered.find((m) => m.to.includes('down@example.com')));
    expect(mail.raw).toContain('https://guides.example/d');
    // Queued twice (another sweep while it is pending or after it is sent): still sent once.
    await relay.relay('mail', new Date(Date.now() + 6 * 60_000));
    await until('the outbox to empty', async () => ((await web.get(EntityManager).fork().count(OutboxMailSchema, { to: 'down@example.com' })) === 0 ? true : undefined));
    expect(sink.delivered.filter((m) => m.to.includes('down@example.com'))).toHaveLength(1);
  });

  it('sends a message whose job gave up (SMTP down longer than its retries) once the relay finds it again', async () => {
    retry.attempts = 2;
    const before = sink.state.attempts;
    sink.state.rejectNext = 2; // the outage outlasts both attempts
    try {
      await web.get(MailOutbox).send(message('outage@example.com', 'After the outage', 'https://guides.example/o'));
      const [row] = await web.get(EntityManager).fork().find(OutboxMailSchema, { to: 'outage@example.com' });
      const jobId = outboxJobId(row!.id);
      await until('the job to give up', async () => (await inspector.getJobState(jobId)) === 'failed');
      expect(sink.state.attempts - before).toBe(2);
      // Logged by the failure's handler, after the job's state is stored: waited for, not read once.
      const line = `Job mail.send ${jobId} failed (attempt 2/2, Error EMESSAGE 451): giving up`;
      await until('the giving-up line', () => logs.includes(line));
      expect(logs).toContain(line);
      expect(await outboxHas(row!.id)).toBe(true);

      // The server is back: the relay's next round sends it, with all its attempts again.
      const relay = web.get(OutboxRelay);
      await relay.relay('mail', new Date(Date.now() + 6 * 60_000));
      const mail = await until('the delivery', () => sink.delivered.find((m) => m.to.includes('outage@example.com')));
      expect(mail.raw).toContain('https://guides.example/o');
      expect(logs.some((l) => l.startsWith(`Job mail.send ${jobId} had given up`))).toBe(true);
      await until('the outbox to empty', async () => ((await outboxHas(row!.id)) ? undefined : true));
      expect(sink.delivered.filter((m) => m.to.includes('outage@example.com'))).toHaveLength(1);
    } finally {
      retry.attempts = 5;
      sink.state.rejectNext = 0;
    }
  });

  it('never starts a second send of a message while one is in flight: a duplicate job and the relay leave it alone', async () => {
    sink.state.hold.add('held@example.com');
    try {
      const id = await queueMail(message('held@example.com', 'Held', 'https://guides.example/h'), 'held-1');
      await until('the send to reach the server', () => sink.receiving() || undefined);
      const attempts = sink.state.attempts;
      // A second job for the same entry (a stalled job run again, a relay pass) while the first waits for its answer.
      await web.get(JobQueue).enqueue('mail.send', { outboxId: id }, { jobId: 'held-2' });
      await until('the duplicate job to finish', async () => ((await inspector.getJob('held-2')) ? undefined : true));
      expect(await web.get(OutboxRelay).relay('mail', new Date(Date.now() + 6 * 60_000))).toBe(0);
      expect(logs).toContain(`Mail ${id} is being sent by another attempt: this one does nothing`);
      expect(sink.state.attempts).toBe(attempts);
      sink.release();
      await until('the outbox to empty', async () => ((await outboxHas(id)) ? undefined : true));
      expect(sink.delivered.filter((m) => m.to.includes('held@example.com'))).toHaveLength(1);
    } finally {
      sink.state.hold.clear();
    }
  });

  it('sends at most 2 copies, ever, to a server that keeps each message but answers the end of DATA after the mailer gave up; then lists it as given up', async () => {
    // Issue 33: a server answering after 28 s got a copy per 10 s attempt, 13 per recipient. Here the
    // mailer waits 1 s and the server answers after 2.5 s: every attempt leaves a copy.
    await worker!.close();
    worker = await build(true, loadConfig({}, env({ SMTP_SOCKET_TIMEOUT_MS: '1000' })));
    sink.state.replyDelayMs = 2_500;
    try {
      await web.get(MailOutbox).send(message('slow@example.com', 'Slow server', 'https://guides.example/slow'));
      const [row] = await web.get(EntityManager).fork().find(OutboxMailSchema, { to: 'slow@example.com' });
      const givenUp = await until('the entry to give up', async () => (await web.get(MailGiveUps).givenUp(20)).find((m) => m.id === row!.id));
      expect(givenUp).toMatchObject({ subject: 'Slow server', attempts: 2 });
      expect(givenUp.lastError).toMatch(/^MailOutcomeUnknownError MAIL\.OUTCOME_UNKNOWN <- /);
      expect(logs).toContain(`Mail ${row!.id} given up: no answer 2 times (it may have arrived); kept with its last error on /admin`);
      // The relay's rounds never hand it over again: the count is the entry's, not the job's.
      for (let pass = 0; pass < 3; pass++) expect(await web.get(OutboxRelay).relay('mail', new Date(Date.now() + 6 * 60_000))).toBe(0);
      await until('the job to have failed', async () => (await inspector.getJobState(outboxJobId(row!.id))) === 'failed');
      // Two, unless a loaded machine went quiet before the message was sent; five before (one per attempt).
      const copies = sink.delivered.filter((m) => m.to.includes('slow@example.com'));
      expect(copies.length).toBeGreaterThanOrEqual(1);
      expect(copies.length).toBeLessThanOrEqual(2);
      // One Message-ID on every copy, so a provider that de-duplicates keeps one.
      const ids = new Set(copies.map((m) => /^Message-ID: (.*)$/im.exec(m.raw)?.[1]?.trim()));
      expect([...ids]).toEqual([`<${row!.id}@localhost>`]);
    } finally {
      sink.state.replyDelayMs = 0;
      await worker?.close();
      worker = await build(true);
    }
  });

  it('counts a send cut off mid-way (its worker stopped, its lease ran out) as a possible copy: after a second, it gives up without sending again', async () => {
    const em = web.get(EntityManager).fork();
    // One earlier attempt had no answer, and the last one's process died with the lease held.
    const row = em.create(OutboxMailSchema, {
      ...message('cut@example.com', 'Cut off', 'https://guides.example/c'),
      createdAt: new Date(),
      attempts: 2,
      unknownOutcomes: 1,
      sendingUntil: new Date(Date.now() - 1_000),
    });
    await em.flush();
    const before = sink.state.attempts;
    await web.get(JobQueue).enqueue('mail.send', { outboxId: row.id }, { jobId: 'cut-1' });
    const givenUp = await until('the entry to give up', async () => (await web.get(MailGiveUps).givenUp(20)).find((m) => m.id === row.id));
    expect(givenUp).toMatchObject({ attempts: 2, lastError: 'A send was cut off (its process stopped mid-send)' });
    expect(logs).toContain(`Mail ${row.id} given up: no answer 2 times (it may have arrived); kept with its last error on /admin`);
    expect(sink.state.attempts).toBe(before);
    expect(sink.delivered.filter((m) => m.to.includes('cut@example.com'))).toHaveLength(0);
  });

  it('gives up a message whose attempts, counted across every round the relay started, reach MAIL_MAX_ATTEMPTS', async () => {
    const em = web.get(EntityManager).fork();
    const row = em.create(OutboxMailSchema, {
      ...message('spent@example.com', 'Spent', 'https://guides.example/s'),
      createdAt: new Date(Date.now() - 10 * 60_000),
      attempts: config.mail.maxAttempts,
      lastError: 'Error EMESSAGE 451',
    });
    await em.flush();
    // The relay hands it over once more (its jobs gave up): the job finds no attempt left.
    expect(await web.get(OutboxRelay).relay('mail', new Date())).toBeGreaterThanOrEqual(1);
    const givenUp = await until('the entry to give up', async () => (await web.get(MailGiveUps).givenUp(20)).find((m) => m.id === row.id));
    expect(givenUp).toMatchObject({ attempts: 16, lastError: 'Error EMESSAGE 451' });
    expect(await web.get(OutboxRelay).relay('mail', new Date())).toBe(0);
    expect(sink.delivered.filter((m) => m.to.includes('spent@example.com'))).toHaveLength(0);
  });

  it('drops messages older than a day from the outbox (their links have expired)', async () => {
    const em = web.get(EntityManager).fork();
    em.create(OutboxMailSchema, { ...message('old@example.com', 'Old', 'https://guides.example/o'), createdAt: new Date(Date.now() - 25 * 60 * 60_000) });
    await em.flush();
    const relay = web.get(OutboxRelay);
    await relay.relay('mail', new Date());
    expect(await web.get(EntityManager).fork().count(OutboxMailSchema, { to: 'old@example.com' })).toBe(0);
  });
});
