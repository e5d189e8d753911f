import { Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

/** Provides the one AppConfig instance built by the process entry point (main.ts or worker.ts). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig) {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
