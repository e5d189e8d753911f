import { Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from 'src/config/app-config';
import { ImageConversionRunner } from '../../application/image-conversion.runner';

const FIRST_RUN_MS = 2_500;

/**
 * Where the jobs run, soon after start and every IMAGE_HOUSEKEEPING_INTERVAL_MS (30 s): the outbox
 * relay for image jobs, lost jobs refunded, old files deleted. Scheduled through the registry
 * rather than @Interval so the period is a setting; the registry exists only where ScheduleModule
 * is imported (the worker, or the web process without Redis), so elsewhere nothing is scheduled.
 */
@Injectable()
export class ImageJobsHousekeeping implements OnApplicationBootstrap {
  private readonly logger = new Logger('Images');

  constructor(
    private readonly runner: ImageConversionRunner,
    private readonly config: AppConfig,
    @Optional() private readonly schedule?: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.schedule || !this.config.payments.enabled) return;
    // Embedded, jobs run in this process's memory queue: after a crash or restart it is empty.
    const resume = this.config.database.kind === 'embedded' && !this.config.redis.url;
    this.schedule.addTimeout('images.housekeeping.first', setTimeout(() => void (resume ? this.resume() : Promise.resolve()).then(() => this.run()), FIRST_RUN_MS));
    this.schedule.addInterval('images.housekeeping', setInterval(() => void this.run(), this.config.images.housekeepingEveryMs));
  }

  private async resume(): Promise<void> {
    await this.runner.resumeAfterRestart().catch((error: unknown) => this.logger.warn({ err: error }, 'Resuming image jobs failed'));
  }

  async run(): Promise<void> {
    await this.runner.housekeeping().catch((error: unknown) => this.logger.warn({ err: error }, 'Image housekeeping failed'));
  }
}
