import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { ERROR_TYPES, type ErrorType } from 'src/contracts/error-report';
import { ERROR_GROUPS_SHOWN, GIVEN_UP_MAIL_SHOWN, type AdminAttentionData, type AdminQueuesData, type ErrorGroupView, type ErrorScope } from 'src/contracts/ops';
import { ErrorLogService } from 'src/modules/error-log';
import { MailGiveUps } from 'src/platform/mail/mail-outbox.port';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { QUEUE_NAMES } from 'src/platform/queue/jobs';

const SCOPE_TYPES: Record<ErrorScope, readonly ErrorType[] | undefined> = {
  all: undefined,
  client: ERROR_TYPES.filter((type) => type !== 'SERVER_ERROR'),
  server: ['SERVER_ERROR'],
};

/** What the admin pages read: error groups, what needs attention, and the web process's own queues when it runs the jobs. */
@Injectable()
export class OpsService {
  constructor(
    private readonly config: AppConfig,
    private readonly errorLog: ErrorLogService,
    private readonly jobs: JobQueue,
    private readonly mail: MailGiveUps,
    private readonly redis: RedisConnection,
  ) {}

  /** What needs an operator: mail given up (with its last error) and a Redis that refuses writes. */
  async attention(): Promise<AdminAttentionData> {
    const [mail, redis] = await Promise.all([this.mail.givenUp(GIVEN_UP_MAIL_SHOWN), this.redis.writeProblem()]);
    return {
      mail_given_up: mail.map((m) => ({ id: m.id, subject: m.subject, created_at: m.createdAt.toISOString(), failed_at: m.failedAt.toISOString(), attempts: m.attempts, last_error: m.lastError })),
      redis_problem: redis,
    };
  }

  errorGroups(scope: ErrorScope): Promise<ErrorGroupView[]> {
    return this.errorLog.latestViews(ERROR_GROUPS_SHOWN, SCOPE_TYPES[scope]);
  }

  /** Without Redis the jobs run here and only this process knows them; with Redis the dashboard reads BullMQ. */
  queues(): AdminQueuesData {
    const counts = this.jobs.localCounts();
    if (this.config.redis.url || !counts) return { mode: 'redis', queues: [] };
    return { mode: 'inline', queues: QUEUE_NAMES.map((name) => ({ name, ...counts[name] })) };
  }
}
