import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { ImageConversionRunner } from '../../application/image-conversion.runner';

/** Registers the 'image.convert' job: the runner converts; a job that fails for good gets its credit back. */
@Injectable()
export class ImageConvertProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly runner: ImageConversionRunner,
  ) {}

  onModuleInit(): void {
    this.processors.register('image.convert', ({ jobId }, job) => this.runner.run(jobId, job), {
      onFailed: ({ jobId }) => this.runner.failedForGood(jobId),
    });
  }
}
