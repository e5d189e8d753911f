import { Logger } from '@nestjs/common';
import type { MikroORM } from '@mikro-orm/core';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { OutboxRelay, type Outbox } from './outbox-relay';
import { InMemoryOutboxEntries } from './testing/in-memory-outbox-entries';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('OutboxRelay', () => {
  let entries: InMemoryOutboxEntries;
  let queue: RecordingJobQueue;
  let work: RecurringWork;
  let relay: OutboxRelay;
  const logs: string[] = [];

  const mail = (overrides: Partial<Outbox<'mail.send'>> = {}): Outbox<'mail.send'> => ({
    name: 'mail',
    entries,
    job: 'mail.send',
    data: (outboxId) => ({ outboxId }),
    jobId: (id) => `mail-${id}`,
    relayAfterMs: 5 * 60_000,
    batch: 2,
    firstDelayMs: 1_000,
    everyMs: 60_000,
    ...overrides,
  });

  const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

  beforeEach(() => {
    logs.length = 0;
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logs.push(String(message)));
    entries = new InMemoryOutboxEntries();
    queue = new RecordingJobQueue();
    work = new RecurringWork({ em: { name: 'default', fork: () => ({}) } } as unknown as MikroORM);
    relay = new OutboxRelay(queue, work);
  });
  afterEach(() => jest.restoreAllMocks());

  it('hands over, oldest first and a batch at a time, the entries waiting longer than the delay', async () => {
    relay.register(mail());
    entries.rows.set(id(3), at(2_000));
    entries.rows.set(id(1), at(0));
    entries.rows.set(id(2), at(1_000));
    entries.rows.set(id(4), at(4 * 60_000)); // the sender's own hand-off may still be on its way

    expect(await relay.relay('mail', at(5 * 60_000 + 3_000))).toBe(2);
    expect(entries.waitingCalls).toEqual([{ before: at(3_000), limit: 2 }]);
    expect(queue.queued).toEqual([
      { name: 'mail.send', data: { outboxId: id(1) }, options: { jobId: `mail-${id(1)}`, retryFailed: true } },
      { name: 'mail.send', data: { outboxId: id(2) }, options: { jobId: `mail-${id(2)}`, retryFailed: true } },
    ]);
    expect(logs).toEqual(['2 waiting entries of the mail outbox handed to the queue again']);
  });

  it('hands an entry over on every pass until its job has done its work (at least once), then no more', async () => {
    relay.register(mail());
    entries.rows.set(id(1), at(0));
    await relay.relay('mail', at(10 * 60_000));
    await relay.relay('mail', at(11 * 60_000));
    expect(queue.queued.map((job) => job.options?.jobId)).toEqual([`mail-${id(1)}`, `mail-${id(1)}`]);
    entries.rows.delete(id(1)); // the job sent it and removed its row
    expect(await relay.relay('mail', at(12 * 60_000))).toBe(0);
    expect(queue.queued).toHaveLength(2);
  });

  it('stops a pass while the queue is down, and the next pass hands the entries over', async () => {
    relay.register(mail());
    entries.rows.set(id(1), at(0));
    queue.down = true;
    await expect(relay.relay('mail', at(10 * 60_000))).rejects.toBeInstanceOf(QueueUnavailableError);
    expect(entries.rows.size).toBe(1);
    queue.down = false;
    expect(await relay.relay('mail', at(11 * 60_000))).toBe(1);
  });

  it('drops expired entries before a pass', async () => {
    entries.dropExpired = async (now) => {
      for (const [key, createdAt] of entries.rows) if (now.getTime() - createdAt.getTime() > 24 * 60 * 60_000) entries.rows.delete(key);
    };
    relay.register(mail());
    entries.rows.set(id(1), at(0));
    entries.rows.set(id(2), at(20 * 60 * 60_000));
    expect(await relay.relay('mail', at(25 * 60 * 60_000))).toBe(1);
    expect(queue.queued.map((job) => job.data)).toEqual([{ outboxId: id(2) }]);
  });

  it('registers each outbox as a recurring task with its first delay and period, once', async () => {
    const register = jest.spyOn(work, 'register');
    relay.register(mail({ everyMs: 30_000, firstDelayMs: 2_500 }));
    expect(register).toHaveBeenCalledWith(expect.objectContaining({ name: 'outbox.mail', firstDelayMs: 2_500, everyMs: 30_000 }));
    expect(() => relay.register(mail())).toThrow('already registered');
    entries.rows.set(id(1), new Date(Date.now() - 10 * 60_000));
    await work.run('outbox.mail');
    expect(queue.queued).toHaveLength(1);
    await expect(relay.relay('images')).rejects.toThrow('No outbox images');
  });
});
