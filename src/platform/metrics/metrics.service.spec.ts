import { Logger } from '@nestjs/common';
import type { MikroORM } from '@mikro-orm/core';
import { InlineJobQueue } from 'src/platform/queue/inline-job-queue.adapter';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { MetricsService } from './metrics.service';
import { numberedForks } from 'src/platform/queue/queue.test-fixtures';

const OUTBOX_ID = '00000000-0000-4000-8000-000000000001';
const pool = { totalCount: 3, idleCount: 2, waitingCount: 1, options: { max: 10 } };
const orm = { driver: { getConnection: () => ({ getNativeClient: async () => pool }) } } as unknown as MikroORM;

/** The value of one sample line of the scrape, e.g. `queue_jobs{queue="mail",state="failed"}`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('MetricsService', () => {
  let processors: JobProcessors;
  let queue: InlineJobQueue;
  let metrics: MetricsService;

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    processors = new JobProcessors(numberedForks());
    queue = new InlineJobQueue(processors, { of: () => ({ attempts: 1, backoff: { type: 'fixed', delayMs: 1 } }) } as JobRetryPolicy);
    metrics = new MetricsService(orm, queue, processors);
  });

  afterEach(async () => {
    await queue.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('times each job attempt by job name, counting completed and failed ones', async () => {
    let fail = false;
    processors.register('mail.send', async () => {
      if (fail) throw new PermanentJobError('rejected');
    });
    await processors.run('mail.send', { outboxId: OUTBOX_ID }, { id: '1', name: 'mail.send', attempt: 1, attempts: 1 });
    fail = true;
    await expect(processors.run('mail.send', { outboxId: OUTBOX_ID }, { id: '2', name: 'mail.send', attempt: 1, attempts: 1 })).rejects.toThrow('rejected');

    const text = await metrics.scrape();
    expect(sample(text, 'job_duration_seconds_count{job="mail.send"}')).toBe(2);
    expect(sample(text, 'jobs_completed_total{job="mail.send"}')).toBe(1);
    expect(sample(text, 'jobs_failed_total{job="mail.send"}')).toBe(1);
  });

  it('reads the in-process queue and the database pool when scraped', async () => {
    jest.useFakeTimers();
    processors.register('mail.send', async () => {
      throw new PermanentJobError('rejected');
    });
    await queue.enqueue('mail.send', { outboxId: OUTBOX_ID });
    let text = await metrics.scrape();
    expect(sample(text, 'queue_jobs{queue="mail",state="waiting"}')).toBe(1);
    expect(sample(text, 'queue_jobs{queue="images",state="active"}')).toBe(0);

    await jest.advanceTimersByTimeAsync(0);
    text = await metrics.scrape();
    expect(sample(text, 'queue_jobs{queue="mail",state="waiting"}')).toBe(0);
    expect(sample(text, 'queue_jobs{queue="mail",state="failed"}')).toBe(1);

    expect(sample(text, 'db_pool_connections')).toBe(3);
    expect(sample(text, 'db_pool_idle_connections')).toBe(2);
    expect(sample(text, 'db_pool_waiting_requests')).toBe(1);
    expect(sample(text, 'db_pool_max_connections')).toBe(10);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('labels the SSR catch-all by page route, and "page" until it knows the routes', async () => {
    const request = { url: '/levels/27' };
    expect(metrics.pageRoute(request)).toBe('page');
    metrics.labelPages(({ url }) => (url.startsWith('/levels/') ? '/levels/:id' : '*'));
    expect(metrics.pageRoute(request)).toBe('/levels/:id');
    metrics.httpRequest(metrics.pageRoute(request), 'GET', 200, 0.002);
    metrics.pageCacheResult('hit');
    metrics.pageRendered('cache');
    const text = await metrics.scrape();
    expect(sample(text, 'http_requests_total{route="/levels/:id",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{route="/levels/:id",method="GET"}')).toBe(1);
    expect(sample(text, 'page_cache_requests_total{result="hit"}')).toBe(1);
    expect(sample(text, 'page_renders_total{target="cache"}')).toBe(1);
  });
});
