import { type DynamicModule, Module } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { AppConfig } from 'src/config/app-config';
import { ConfigModule } from 'src/config/config.module';
import { DatabaseModule } from './database/database.module';
import { LoggingModule } from './logging/logging.module';

/**
 * The one way every process (web, worker, CLIs, tests) assembles the platform: the config and the
 * database, the only two global modules (every module reads config and persists), plus structured
 * logs for the long-running processes. Everything else (Redis, the queue, mail) is imported by the
 * modules that use it, so a process loads exactly what its modules need.
 */
@Module({})
export class PlatformModule {
  /** `logs`: where the structured logs go instead of stdout (the tests' in-process app). */
  static forRoot(config: AppConfig, options: { structuredLogs?: boolean; logs?: DestinationStream } = {}): DynamicModule {
    return {
      module: PlatformModule,
      imports: [ConfigModule.forRoot(config), ...(options.structuredLogs === false ? [] : [LoggingModule.forRoot(options.logs)]), DatabaseModule],
    };
  }
}
