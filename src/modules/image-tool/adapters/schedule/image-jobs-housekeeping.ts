import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { OutboxRelay } from 'src/platform/outbox/outbox-relay';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { ImageConversionRunner, REQUEUE_AFTER_MS } from '../../application/image-conversion.runner';
import { queueJobId } from '../../domain/image-job';

const FIRST_RUN_MS = 2_500;

/**
 * With payments on, where the jobs run, soon after start and every IMAGE_HOUSEKEEPING_INTERVAL_MS
 * (30 s; tests lower it): the job rows are an outbox the relay serves, and the housekeeping
 * refunds lost jobs and deletes old files.
 */
@Injectable()
export class ImageJobsHousekeeping implements OnModuleInit {
  private readonly logger = new Logger('Images');

  constructor(
    private readonly runner: ImageConversionRunner,
    private readonly config: AppConfig,
    private readonly relay: OutboxRelay,
    private readonly work: RecurringWork,
  ) {}

  onModuleInit(): void {
    if (!this.config.payments.enabled) return;
    const everyMs = this.config.images.housekeepingEveryMs;
    this.relay.register({
      name: 'images',
      entries: { waiting: (before, limit) => this.runner.waitingForTheQueue(before, limit) },
      job: 'image.convert',
      data: (jobId) => ({ jobId }),
      jobId: queueJobId,
      priority: (jobId) => this.runner.queuePriority(jobId),
      relayAfterMs: REQUEUE_AFTER_MS,
      batch: 200,
      firstDelayMs: FIRST_RUN_MS,
      everyMs,
    });
    // Embedded, jobs run in this process's memory queue: after a crash or restart it is empty.
    const resume = this.config.database.kind === 'embedded' && !this.config.redis.url;
    this.work.register({
      name: 'images.housekeeping',
      firstDelayMs: FIRST_RUN_MS,
      everyMs,
      run: () => this.runner.housekeeping(),
      firstRun: async () => {
        if (resume) await this.runner.resumeAfterRestart().catch((error: unknown) => this.logger.warn({ err: error }, 'Resuming image jobs failed'));
        await this.runner.housekeeping();
      },
    });
  }
}
