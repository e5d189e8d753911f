import { Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { AppConfig } from 'src/config/app-config';
import { ImageConversionRunner } from '../../application/image-conversion.runner';

/** Every 30 s where the jobs run: the outbox relay for image jobs, lost jobs refunded, old files deleted. */
@Injectable()
export class ImageJobsHousekeeping {
  private readonly logger = new Logger('Images');

  constructor(
    private readonly runner: ImageConversionRunner,
    private readonly config: AppConfig,
  ) {}

  // Two methods: @nestjs/schedule keeps one schedule per method (a second decorator replaces the first).
  @Timeout(2_500)
  async atStart(): Promise<void> {
    await this.run();
  }

  @Interval(30_000)
  async run(): Promise<void> {
    if (!this.config.payments.enabled) return;
    await this.runner.housekeeping().catch((error: unknown) => this.logger.warn({ err: error }, 'Image housekeeping failed'));
  }
}
