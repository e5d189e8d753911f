import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { ErrorLogController } from './adapters/http/error-log.controller';
import { ErrorReportSchema } from './adapters/persistence/error-report.entity';
import { MikroOrmErrorReportRepository } from './adapters/persistence/mikro-orm-error-report.repository';
import { ErrorLogService } from './application/error-log.service';
import { ErrorReportRepository } from './domain/error-report.repository';
import { ServerErrorSink } from 'src/platform/errors/server-error-sink';

/** Records the server's own 5xx through the error log. */
class ErrorLogServerErrorSink extends ServerErrorSink {
  constructor(private readonly errorLog: ErrorLogService) {
    super();
  }

  record(error: unknown, path: string): Promise<void> {
    return this.errorLog.recordServerError(error, path);
  }
}

/** Client (and later server) error reports, grouped by fingerprint, readable by ops. */
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
