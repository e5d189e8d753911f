import { loadConfig } from 'src/config/app-config';
import { BullmqJobQueue } from './bullmq-job-queue.adapter';
import { InlineJobQueue } from './inline-job-queue.adapter';
import { JobProcessors } from './job-processors';
import type { JobData } from './jobs';
import { JOB_NAMES, JOBS, QUEUE_NAMES, validateJob } from './jobs';
import { JobRetryPolicy } from './job-retry-policy';
import { InvalidJobError } from './queue.errors';

const mail: JobData<'mail.send'> = {
  to: 'player@example.com',
  subject: 'Confirm your email',
  text: 'Open https://guides.example/auth/confirm#token=abc',
  html: '<p>Open the link</p>',
};

describe('the job registry', () => {
  it('names every job with its queue, schema and retry policy', () => {
    expect(JOB_NAMES).toContain('mail.send');
    expect(QUEUE_NAMES).toContain('mail');
    expect(JOBS['mail.send'].retry).toEqual({ attempts: 8, backoff: { type: 'exponential', delayMs: 5_000 } });
  });

  it('accepts a valid message', () => {
    expect(validateJob('mail.send', mail)).toEqual(mail);
  });

  it.each([
    ['a bad address', { ...mail, to: 'not an address' }, 'to'],
    ['a subject with a line break', { ...mail, subject: 'Hi\r\nBcc: everyone@example.com' }, 'subject'],
    ['a subject over 200 characters', { ...mail, subject: 'x'.repeat(201) }, 'subject'],
    ['a text over 100 000 characters', { ...mail, text: 'x'.repeat(100_001) }, 'text'],
    ['a missing html', { to: mail.to, subject: mail.subject, text: mail.text }, 'html'],
  ])('refuses %s, naming the field but not its value', (_, data, field) => {
    let error: unknown;
    try {
      validateJob('mail.send', data);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidJobError);
    const { details } = error as InvalidJobError;
    expect(details.join('\n')).toMatch(new RegExp(`^${field}: `, 'm'));
    expect(details.join('\n')).not.toContain('everyone@example.com');
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
    const processors = new JobProcessors();
    const handler = jest.fn(async () => undefined);
    processors.register('mail.send', handler);
    const queue = new InlineJobQueue(processors, new JobRetryPolicy());
    await expect(queue.enqueue('mail.send', { ...mail, to: 'nope' })).rejects.toBeInstanceOf(InvalidJobError);
    await queue.onModuleDestroy();
    expect(handler).not.toHaveBeenCalled();
  });

  it('by the BullMQ queue: Redis is never asked (the unreachable one here would fail differently)', async () => {
    const config = loadConfig({}, { REDIS_URL: 'redis://127.0.0.1:1' });
    const queue = new BullmqJobQueue(config, new JobRetryPolicy());
    try {
      await expect(queue.enqueue('mail.send', { ...mail, subject: 'a\nb' })).rejects.toBeInstanceOf(InvalidJobError);
    } finally {
      await queue.onApplicationShutdown();
    }
  });
});
