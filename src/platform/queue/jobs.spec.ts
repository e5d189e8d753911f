import { loadConfig } from 'src/config/app-config';
import { BullmqJobQueue } from './bullmq-job-queue.adapter';
import { InlineJobQueue } from './inline-job-queue.adapter';
import { JobProcessors } from './job-processors';
import type { JobData } from './jobs';
import { JOB_NAMES, JOBS, QUEUE_NAMES, validateJob } from './jobs';
import { JobRetryPolicy } from './job-retry-policy';
import { InvalidJobError } from './queue.errors';
import { numberedForks } from './queue.test-fixtures';

const mail: JobData<'mail.send'> = { outboxId: '3f1c7a52-8d4e-4b7a-9f0e-2c6d5b8a1e90' };

describe('the job registry', () => {
  it('names every job with its queue, schema and retry policy', () => {
    expect(JOB_NAMES).toContain('mail.send');
    expect(QUEUE_NAMES).toContain('mail');
    expect(JOBS['mail.send'].retry).toEqual({ attempts: 8, backoff: { type: 'exponential', delayMs: 5_000 } });
  });

  it('accepts an outbox id', () => {
    expect(validateJob('mail.send', mail)).toEqual(mail);
  });

  it.each([
    ['an id that is not a UUID', { outboxId: 'player@example.com' }, 'outboxId'],
    ['a missing id', {}, 'outboxId'],
    // Ids, never the message: its links carry tokens and would sit in Redis.
    ['the message itself', { ...mail, to: 'everyone@example.com', text: 'https://guides.example/auth/confirm#token=abc' }, '(data)'],
  ])('refuses %s, naming the field but not its value', (_, data, field) => {
    let error: unknown;
    try {
      validateJob('mail.send', data);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidJobError);
    const { details } = error as InvalidJobError;
    expect(details.join('\n')).toMatch(new RegExp(`^${field.replace(/[()]/g, '\\$&')}: `, 'm'));
    expect(details.join('\n')).not.toContain('everyone@example.com');
    expect(details.join('\n')).not.toContain('token=abc');
  });

  it.each(['123', 'a:b', '', 'x'.repeat(129)])('refuses the job id %j', (jobId) => {
    expect(() => validateJob('mail.send', mail, jobId)).toThrow(InvalidJobError);
  });

  it('refuses a job that is not in the registry', () => {
    expect(() => validateJob('mail.sendd' as 'mail.send', mail)).toThrow(InvalidJobError);
  });
});

describe('bad data is refused before it is queued', () => {
  it('by the in-process queue: the processor never runs', async () => {
    const processors = new JobProcessors(numberedForks());
    const handler = jest.fn(async () => undefined);
    processors.register('mail.send', handler);
    const queue = new InlineJobQueue(processors, new JobRetryPolicy());
    await expect(queue.enqueue('mail.send', { outboxId: 'nope' })).rejects.toBeInstanceOf(InvalidJobError);
    await queue.onModuleDestroy();
    expect(handler).not.toHaveBeenCalled();
  });

  it('by the BullMQ queue: Redis is never asked (the unreachable one here would fail differently)', async () => {
    const config = loadConfig({}, { REDIS_URL: 'redis://127.0.0.1:1' });
    const queue = new BullmqJobQueue(config, new JobRetryPolicy());
    try {
      await expect(queue.enqueue('mail.send', { outboxId: 'nope' })).rejects.toBeInstanceOf(InvalidJobError);
    } finally {
      await queue.onApplicationShutdown();
    }
  });
});
