import { ServerErrorSink } from 'src/platform/errors/server-error-sink.port';
import { ErrorLogService } from '../application/error-log.service';

/** Records the server's own 5xx through the error log. */
export class ErrorLogServerErrorSink extends ServerErrorSink {
  constructor(private readonly errorLog: ErrorLogService) {
    super();
  }

  record(error: unknown, path: string): Promise<void> {
    return this.errorLog.recordServerError(error, path);
  }
}
