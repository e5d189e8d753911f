import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { CreditsModule } from 'src/modules/credits/credits.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { OnnxSharpImageConverter } from './adapters/onnx-sharp-image-converter.adapter';
import { ImagesController } from './adapters/http/images.controller';
import { ImageEstimateController } from './adapters/http/image-estimate.controller';
import { SafeHttpImageFetcher } from './adapters/http/safe-http-image-fetcher.adapter';
import { OnnxUpscaler } from './adapters/onnx/onnx-upscaler';
import { ImageJobSchema } from './adapters/persistence/image-job.entity';
import { PostgresImageJobRepository } from './adapters/persistence/postgres-image-job-repository.adapter';
import { ImageConvertProcessor } from './adapters/queue/image-convert.processor';
import { ImageJobsHousekeeping } from './adapters/schedule/image-jobs-housekeeping';
import { SharpStyles } from './adapters/sharp/sharp-styles';
import { SharpImageCodec } from './adapters/sharp/sharp-image-codec.adapter';
import { FileImageStore } from './adapters/storage/file-image-store.adapter';
import { S3ImageStore } from './adapters/storage/s3-image-store.adapter';
import { ImageConversionRunner } from './application/image-conversion.runner';
import { ImageToolService } from './application/image-tool.service';
import { ConversionBudget } from './domain/conversion-budget';
import { ImageJobRepository } from './domain/image-job-repository.port';
import { ImageConverter } from './domain/image-converter.port';
import { ImageCodec } from './domain/image-codec.port';
import { ImageFetcher } from './domain/image-fetcher.port';
import { ImageStore } from './domain/image-store.port';
import { OutboxModule } from 'src/platform/outbox/outbox.module';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';

/**
 * The image tool: a conversion costs 1 credit (held through the credits module's CreditLedger,
 * captured on success, released on failure); the web process accepts jobs, the process that runs
 * the jobs converts them (ONNX Runtime for AI upscaling, sharp for the styles).
 */
@Module({
  imports: [AuthGuardsModule, CreditsModule, QueueModule, OutboxModule, RecurringWorkModule, MikroOrmModule.forFeature([ImageJobSchema])],
  controllers: [ImagesController, ImageEstimateController],
  providers: [
    ImageToolService,
    ImageConversionRunner,
    ImageConvertProcessor,
    ImageJobsHousekeeping,
    { provide: ImageJobRepository, useClass: PostgresImageJobRepository },
    { provide: ImageCodec, useClass: SharpImageCodec },
    { provide: ImageFetcher, useFactory: () => new SafeHttpImageFetcher() },
    {
      provide: ImageStore,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const store = config.images.store;
        return store.kind === 's3' ? new S3ImageStore(store) : new FileImageStore(store.dir);
      },
    },
    // The deadline shares the work among the inference threads (IMAGE_THREADS).
    { provide: ConversionBudget, inject: [AppConfig], useFactory: (config: AppConfig) => new ConversionBudget(config.images.threads) },
    // Models load on first use (once per process), so the web process, which never converts, never loads them.
    // One upscale's tiles run on IMAGE_THREADS inference threads (config.images.threads).
    {
      provide: ImageConverter,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new OnnxSharpImageConverter(new OnnxUpscaler({ threads: config.images.threads }), new SharpStyles()),
    },
  ],
  exports: [ImageToolService],
})
export class ImageToolModule {}

/** The worker configures sharp for conversions at start. */
