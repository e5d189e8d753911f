import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { RequestContext, type EntityManager } from '@mikro-orm/core';
import { InlineJobQueue } from './inline-job-queue.adapter';
import { JobProcessors } from './job-processors';
import { JobRetryPolicy } from './job-retry-policy';
import type { JobData } from './jobs';
import { PermanentJobError, QueueUnavailableError } from './queue.errors';
import { currentFork, numberedForks } from './queue.test-fixtures';

// Jobs carry ids; these name what each test job stands for.
const PLAYER = '00000000-0000-4000-8000-000000000001';
const GONE = '00000000-0000-4000-8000-000000000002';
const SLOW = '00000000-0000-4000-8000-000000000003';
const mail: JobData<'mail.send'> = { outboxId: PLAYER };

describe('InlineJobQueue', () => {
  let processors: JobProcessors;
  let queue: InlineJobQueue;
  let warnings: string[];

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void warnings.push(String(message)));
    processors = new JobProcessors(numberedForks());
    queue = new InlineJobQueue(processors, new JobRetryPolicy());
  });

  afterEach(async () => {
    await queue.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('retries a failing processor with the exponential backoff of the registry, then succeeds', async () => {
    const attempts: { at: number; attempt: number }[] = [];
    processors.register('mail.send', async (data, job) => {
      attempts.push({ at: Date.now(), attempt: job.attempt });
      expect(data).toEqual(mail);
      if (job.attempt < 3) throw Object.assign(new Error('451 try again later for player@example.com'), { responseCode: 451 });
    });

    await queue.enqueue('mail.send', mail);
    expect(attempts).toHaveLength(0); // queued, not run inside enqueue
    await jest.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(attempts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(10_000);

    const start = attempts[0]!.at;
    expect(attempts.map((a) => ({ after: a.at - start, attempt: a.attempt }))).toEqual([
      { after: 0, attempt: 1 },
      { after: 5_000, attempt: 2 },
      { after: 15_000, attempt: 3 },
    ]);
    await jest.advanceTimersByTimeAsync(60 * 60_000);
    expect(attempts).toHaveLength(3);
    // Failures are logged by name, id and codes: never the error message (it may quote the address).
    expect(warnings).toEqual([
      'Job mail.send inline-1 failed (attempt 1/8, Error 451): retrying in 5000 ms',
      'Job mail.send inline-1 failed (attempt 2/8, Error 451): retrying in 10000 ms',
    ]);
  });

  it('gives up after the last attempt, and at once on a permanent failure', async () => {
    const policy = { of: () => ({ attempts: 3, backoff: { type: 'fixed' as const, delayMs: 100 } }) };
    queue = new InlineJobQueue(processors, policy);
    const seen: string[] = [];
    processors.register('mail.send', async (data, job) => {
      seen.push(`${data.outboxId === GONE ? 'gone' : 'player'} ${job.attempt}/${job.attempts}`);
      if (data.outboxId === GONE) throw new PermanentJobError('rejected');
      throw new Error('down');
    });
    await queue.enqueue('mail.send', mail);
    await queue.enqueue('mail.send', { outboxId: GONE });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual([
      'player 1/3',
      'gone 1/3',
      'player 2/3',
      'player 3/3',
    ]);
    expect(warnings.filter((w) => w.endsWith('giving up'))).toEqual([
      'Job mail.send inline-2 failed (attempt 1/3, PermanentJobError): giving up',
      'Job mail.send inline-1 failed (attempt 3/3, Error): giving up',
    ]);
  });

  it('waits out a database outage without using attempts: the job runs when the database is back', async () => {
    const attempts: number[] = [];
    const failed = jest.fn(async () => undefined);
    processors.register(
      'image.convert',
      async (_data, job) => {
        attempts.push(job.attempt);
        // Down for 10 tries (longer than 3 attempts with their backoff), then back.
        if (attempts.length <= 10) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
      },
      { onFailed: failed },
    );
    await queue.enqueue('image.convert', { jobId: PLAYER });
    await jest.advanceTimersByTimeAsync(10 * 5_000);
    expect(attempts).toEqual(Array(11).fill(1));
    expect(queue.counts().images).toMatchObject({ completed: 1, failed: 0 });
    expect(failed).not.toHaveBeenCalled();
  });

  it("runs each attempt and the failure handler in a MikroORM context of its own, never the queueing request's", async () => {
    const policy = { of: () => ({ attempts: 2, backoff: { type: 'fixed' as const, delayMs: 100 } }) };
    queue = new InlineJobQueue(processors, policy);
    const seen: { what: string; fork: number | undefined }[] = [];
    processors.register(
      'image.convert',
      async (_data, job) => {
        seen.push({ what: `attempt ${job.attempt}`, fork: currentFork() });
        throw new Error('flaky');
      },
      { onFailed: async () => void seen.push({ what: 'failed', fork: currentFork() }) },
    );
    // Queued from inside a request: its context is fork 0, which a timer set there would inherit.
    const request = { name: 'default', fork: () => ({ name: 'default', id: 0 }) } as unknown as EntityManager;
    await RequestContext.create(request, () => queue.enqueue('image.convert', { jobId: PLAYER }));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([
      { what: 'attempt 1', fork: 1 },
      { what: 'attempt 2', fork: 2 },
      { what: 'failed', fork: 3 },
    ]);
  });

  it('runs a job id once while it is pending', async () => {
    const handler = jest.fn(async () => undefined);
    processors.register('mail.send', handler);
    await queue.enqueue('mail.send', mail, { jobId: 'welcome-42' });
    await queue.enqueue('mail.send', mail, { jobId: 'welcome-42' });
    await jest.advanceTimersByTimeAsync(0);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('refuses a job nobody processes', async () => {
    await expect(queue.enqueue('mail.send', mail)).rejects.toThrow('No processor is registered for job mail.send');
  });

  it('on shutdown waits for running jobs, abandons waiting retries and refuses new jobs', async () => {
    let finish!: () => void;
    let runs = 0;
    processors.register('mail.send', (data) => {
      runs++;
      if (data.outboxId === SLOW) return new Promise<void>((resolve) => (finish = resolve));
      return Promise.reject(new Error('down'));
    });
    await queue.enqueue('mail.send', { outboxId: SLOW });
    await queue.enqueue('mail.send', mail);
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2); // one running, one waiting for its retry

    let closed = false;
    const closing = queue.onModuleDestroy().then(() => (closed = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    await expect(queue.enqueue('mail.send', mail)).rejects.toBeInstanceOf(QueueUnavailableError);
    finish();
    await closing;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    expect(warnings).toContain('Shutting down: 1 waiting job(s) abandoned: mail.send inline-2');
  });

  it('runs image conversions one at a time (the queue\'s concurrency), mail alongside', async () => {
    const ids = [PLAYER, GONE, SLOW];
    let running = 0;
    let most = 0;
    const done: string[] = [];
    processors.register('image.convert', async ({ jobId }) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 1_000));
      running--;
      done.push(jobId);
    });
    const mails: string[] = [];
    processors.register('mail.send', async ({ outboxId }) => void mails.push(outboxId));
    for (const jobId of ids) await queue.enqueue('image.convert', { jobId }, { jobId: `image-${jobId}` });
    await queue.enqueue('mail.send', mail);
    await jest.advanceTimersByTimeAsync(0);
    expect(mails).toEqual([PLAYER]);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(done).toEqual(ids);
    expect(most).toBe(1);
  });

  it('starts waiting conversions by priority, then in the order they came (the fair image queue)', async () => {
    const done: string[] = [];
    processors.register('image.convert', async ({ jobId }) => {
      await new Promise((r) => setTimeout(r, 1_000));
      done.push(jobId);
    });
    // A heavy user's first three jobs (priorities 1-3), then a light user's first (priority 1).
    const [heavy1, heavy2, heavy3, light] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [jobId, priority] of [[heavy1, 1], [heavy2, 2], [heavy3, 3], [light, 1]] as const) await queue.enqueue('image.convert', { jobId }, { jobId: `image-${jobId}`, priority });
    await jest.advanceTimersByTimeAsync(5_000);
    expect(done).toEqual([heavy1, light, heavy2, heavy3]);
  });

  it('counts its jobs per queue: waiting, running, waiting for a retry, and done or failed since start', async () => {
    const policy = { of: () => ({ attempts: 2, backoff: { type: 'fixed' as const, delayMs: 1_000 } }) };
    queue = new InlineJobQueue(processors, policy);
    const zero = { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 };
    expect(queue.counts()).toEqual({ mail: zero, images: zero });

    processors.register('image.convert', () => new Promise<void>((resolve) => setTimeout(resolve, 5_000)));
    processors.register('mail.send', async ({ outboxId }) => {
      if (outboxId === GONE) throw new Error('down');
    });
    await queue.enqueue('image.convert', { jobId: PLAYER }, { jobId: 'image-1' });
    await queue.enqueue('image.convert', { jobId: GONE }, { jobId: 'image-2' });
    await queue.enqueue('mail.send', mail);
    await queue.enqueue('mail.send', { outboxId: GONE });
    expect(queue.counts()).toEqual({ mail: { ...zero, waiting: 2 }, images: { ...zero, waiting: 2 } });

    await jest.advanceTimersByTimeAsync(0);
    // One conversion at a time: the second waits for its turn; one mail sent, one waits for its retry.
    expect(queue.counts()).toEqual({ mail: { ...zero, delayed: 1, completed: 1 }, images: { ...zero, active: 1, waiting: 1 } });

    await jest.advanceTimersByTimeAsync(10_000);
    expect(queue.counts()).toEqual({ mail: { ...zero, completed: 1, failed: 1 }, images: { ...zero, completed: 2 } });
  });

  it('calls the failure handler once a job has failed for good, not while it is retried', async () => {
    const failed: number[] = [];
    processors.register(
      'image.convert',
      async (_data, job) => {
        if (job.attempt < 3) throw new Error('flaky');
        throw new Error('still broken');
      },
      { onFailed: async (_data, job) => void failed.push(job.attempt) },
    );
    await queue.enqueue('image.convert', { jobId: PLAYER });
    await jest.advanceTimersByTimeAsync(5_000);
    expect(failed).toEqual([]);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(failed).toEqual([3]);

    processors = new JobProcessors(numberedForks());
    queue = new InlineJobQueue(processors, new JobRetryPolicy());
    processors.register('image.convert', async () => {
      throw new PermanentJobError('not an image');
    }, { onFailed: async (_data, job) => void failed.push(job.attempt) });
    await queue.enqueue('image.convert', { jobId: GONE });
    await jest.advanceTimersByTimeAsync(0);
    expect(failed).toEqual([3, 1]);
  });
});
