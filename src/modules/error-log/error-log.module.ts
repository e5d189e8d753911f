import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { ErrorLogServerErrorSink } from './adapters/error-log-server-error-sink.adapter';
import { ErrorLogController } from './adapters/http/error-log.controller';
import { ErrorReportSchema } from './adapters/persistence/error-report.entity';
import { MikroOrmErrorReportRepository } from './adapters/persistence/mikro-orm-error-report-repository.adapter';
import { ErrorLogService } from './application/error-log.service';
import { ErrorReportRepository } from './domain/error-report-repository.port';
import { ServerErrorSink } from 'src/platform/errors/server-error-sink.port';

/** Error reports from browsers and the server's own 5xx (it binds the platform's ServerErrorSink), grouped by fingerprint, readable by admins. */
@Module({
  imports: [MikroOrmModule.forFeature([ErrorReportSchema]), AuthGuardsModule],
  controllers: [ErrorLogController],
  providers: [
    ErrorLogService,
    { provide: ErrorReportRepository, useClass: MikroOrmErrorReportRepository },
    { provide: ServerErrorSink, inject: [ErrorLogService], useFactory: (log: ErrorLogService) => new ErrorLogServerErrorSink(log) },
  ],
  exports: [ErrorLogService, ServerErrorSink],
})
export class ErrorLogModule {}
