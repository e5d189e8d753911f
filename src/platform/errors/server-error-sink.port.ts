/**
 * Where unexpected server errors (the 5xx answers) are recorded besides the log. The error-log
 * module provides it; the platform only knows this port.
 */
export abstract class ServerErrorSink {
  abstract record(error: unknown, path: string): Promise<void>;
}
