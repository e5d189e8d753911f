import { Inject, Injectable, Logger } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import type { JobName, QueueName } from 'src/platform/queue/jobs';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * The process's metrics in one prom-client registry (Prometheus text at /metrics, and at the
 * worker's own listener): HTTP requests by route pattern, page renders and page-cache results,
 * the database round trips of each page load, job attempts, and, read at scrape time, the queues'
 * counts and the database pool. Plus the process metrics (CPU, memory, event loop, GC) of
 * collectDefaultMetrics.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  /** How the SSR catch-all's requests are labelled: the page's route pattern (set by the SSR module). */
  private pageRoutes?: (request: { url: string }) => string;
  private pool?: Pool;

  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern (never the raw path), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its response, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly pageRenders = new Counter({
    name: 'page_renders_total',
    help: 'Pages rendered by React: streamed to a visitor, or rendered once for the page cache',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });
  private readonly pageRoundTrips = new Histogram({
    name: 'page_database_round_trips',
    help: 'Database round trips (each statement, BEGIN and COMMIT too) of one page or payload load, by page route pattern',
    labelNames: ['route'] as const,
    buckets: [0, 1, 2, 3, 4, 6, 8, 12, 16],
    registers: [this.registry],
  });
  private readonly pageCache = new Counter({
    name: 'page_cache_requests_total',
    help: 'Requests for cacheable pages: served from the page cache (hit) or rendered for it (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Time one attempt of a job took, by job name',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly jobsCompleted = new Counter({
    name: 'jobs_completed_total',
    help: 'Job attempts that succeeded, by job name',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly jobsFailed = new Counter({
    name: 'jobs_failed_total',
    help: 'Job attempts that failed (retried or not), by job name',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  constructor(
    @Inject(MikroORM) private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    processors: JobProcessors,
  ) {
    collectDefaultMetrics({ register: this.registry });
    processors.onAttempt((name, outcome, seconds) => this.jobAttempt(name, outcome, seconds));
    const queueJobs: Gauge<'queue' | 'state'> = new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state (waiting, active, delayed, failed), read when scraped',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      collect: () => this.collectQueues(queueJobs),
    });
    const pool = (name: string, help: string, read: (pool: Pool) => number) => {
      const gauge: Gauge = new Gauge({ name, help, registers: [this.registry], collect: () => this.collectPool(gauge, read) });
    };
    pool('db_pool_connections', 'Open connections of the database pool', (p) => p.totalCount);
    pool('db_pool_idle_connections', 'Open connections of the database pool not in use', (p) => p.idleCount);
    pool('db_pool_waiting_requests', 'Queries waiting for a connection of the database pool', (p) => p.waitingCount);
    pool('db_pool_max_connections', 'The most connections the database pool opens', (p) => p.options.max ?? 0);
  }

  /** Lets the SSR module label its catch-all route's requests by page route pattern (read from the request's match). */
  labelPages(routeOf: (request: { url: string }) => string): void {
    this.pageRoutes = routeOf;
  }

  /** The label of an SSR catch-all's request: its page route, or 'page' while unknown. */
  pageRoute(request: { url: string }): string {
    return this.pageRoutes?.(request) ?? 'page';
  }

  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.httpRequests.inc({ route, method, status: String(status) });
    this.httpDuration.observe({ route, method }, seconds);
  }

  pageRendered(target: 'stream' | 'cache'): void {
    this.pageRenders.inc({ target });
  }

  /** The round trips one page's (or payload's) loader made: the levels page is one, for instance. */
  pageLoaded(route: string, roundTrips: number): void {
    this.pageRoundTrips.observe({ route }, roundTrips);
  }

  pageCacheResult(result: 'hit' | 'miss'): void {
    this.pageCache.inc({ result });
  }

  jobAttempt(job: JobName, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobDuration.observe({ job }, seconds);
    (outcome === 'completed' ? this.jobsCompleted : this.jobsFailed).inc({ job });
  }

  /** Everything in Prometheus's text format. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async collectQueues(gauge: Gauge<'queue' | 'state'>): Promise<void> {
    gauge.reset();
    let counts: Record<QueueName, Record<(typeof QUEUE_STATES)[number], number>> | undefined;
    try {
      // In-process jobs without Redis; BullMQ's counts in Redis with it.
      counts = await this.jobs.stateCounts();
    } catch {
      // Redis is down: no queue series this scrape (/readyz reports the outage).
      return;
    }
    for (const [queue, states] of Object.entries(counts ?? {})) {
      for (const state of QUEUE_STATES) gauge.set({ queue, state }, states[state]);
    }
  }

  private async collectPool(gauge: Gauge, read: (pool: Pool) => number): Promise<void> {
    try {
      // MikroORM's PostgreSQL driver runs kysely on a `pg` Pool (the embedded database too).
      this.pool ??= await (this.orm.driver.getConnection() as unknown as PostgreSqlConnection).getNativeClient();
      gauge.set(read(this.pool));
    } catch (error) {
      this.logger.warn(`The database pool could not be read: ${error instanceof Error ? error.name : typeof error}`);
    }
  }
}
