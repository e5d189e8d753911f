import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { MigrationStatus } from 'src/platform/database/migration-status.service';
import { WorkerWatch } from 'src/platform/queue/worker-heartbeat.service';
import { RedisConnection } from 'src/platform/redis/redis.module';

export interface ReadinessReport {
  /**
   * unavailable (503): pages cannot be served (database down, schema behind). degraded (200): pages
   * work, something else does not (Redis down or out of memory: shared rate limits and queueing; no worker
   * for waiting jobs).
   */
  status: 'ready' | 'degraded' | 'unavailable';
  checks: { database: string; migrations: string; redis: string; workers?: string };
}

const FINE = new Set(['up', 'up to date', 'not configured']);

/** The checks that are not fine, as 'name: value', for a log line. */
export const problemsOf = (report: ReadinessReport): string[] =>
  Object.entries(report.checks)
    .filter(([, value]) => value !== undefined && !FINE.has(value) && !value.startsWith('up ('))
    .map(([name, value]) => `${name}: ${value}`);

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/** What a load balancer (/readyz) and the start-up log need to know, in one place. */
@Injectable()
export class Readiness {
  constructor(
    private readonly em: EntityManager,
    private readonly migrations: MigrationStatus,
    private readonly redis: RedisConnection,
    private readonly workers: WorkerWatch,
  ) {}

  async report(): Promise<ReadinessReport> {
    const [database, redis] = await Promise.all([this.database(), this.redisCheck()]);
    const [migrations, workers] = await Promise.all([database === 'up' ? this.pendingMigrations() : 'unknown', redis === 'up' ? this.workers.state() : undefined]);
    const checks: ReadinessReport['checks'] = { database, migrations, redis };
    if (redis !== 'not configured') checks.workers = workers?.summary ?? 'unknown';
    const unavailable = database !== 'up' || migrations.includes('pending');
    const degraded = (redis !== 'up' && redis !== 'not configured') || workers?.warning === true;
    return { status: unavailable ? 'unavailable' : degraded ? 'degraded' : 'ready', checks };
  }

  private async database(): Promise<'up' | 'down'> {
    try {
      await withTimeout(this.em.getConnection().execute('select 1'), 2_000);
      return 'up';
    } catch {
      return 'down';
    }
  }

  private async pendingMigrations(): Promise<string> {
    try {
      const pending = await withTimeout(this.migrations.pending(), 2_000);
      return pending.length ? `${pending.length} pending (${pending.join(', ')}): run \`npm run migrate\`` : 'up to date';
    } catch {
      return 'unknown';
    }
  }

  /** 'up', 'not configured', 'down', or the problem named ('out of memory: writes refused …'). */
  private async redisCheck(): Promise<string> {
    if (!this.redis.client) return 'not configured';
    return (await this.redis.writeProblem()) ?? 'up';
  }
}
