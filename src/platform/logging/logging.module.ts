import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import pinoPretty from 'pino-pretty';
import { AppConfig } from 'src/config/app-config';
import { requestIdOf } from './request-id';

const QUIET_PATHS = /^\/(healthz|readyz|assets\/|favicon)/;
/** Requests to the API and the auth routes: each answer is worth a line. */
const API_PATHS = /^\/(api|auth)\//;

type LoggedRequest = IncomingMessage & { originalUrl?: string };

/**
 * The level of a request's completion line. A page or payload served without error is logged at
 * debug: page views are what the metrics count (by route and status), and one JSON line each cost
 * 8% of rendering a level page. The API's answers, failures and refusals stay at info.
 */
export function requestLogLevel(req: LoggedRequest, res: ServerResponse, error?: Error): 'info' | 'debug' {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const path = req.originalUrl ?? req.url ?? '';
  return !error && read && res.statusCode < 400 && !API_PATHS.test(path) ? 'debug' : 'info';
}

/** The completion line of an answer that carried an error: its class and first line of message, no stack. */
export function completionWithoutStack(_req: IncomingMessage, _res: ServerResponse, error: Error, fields: Record<string, unknown>): Record<string, unknown> {
  const { err: _err, ...rest } = fields;
  const code = (error as { code?: unknown }).code;
  return { ...rest, error: `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${String(error.message).split('\n', 1)[0]}` };
}

/** LOG_FORMAT when set; otherwise pretty for a person at a development terminal, JSON for machines. */
export function chooseLogFormat(configured: 'json' | 'pretty' | undefined, env: AppConfig['env'], stdoutIsTty: boolean, local = false): 'json' | 'pretty' {
  return configured ?? (stdoutIsTty && (env === 'development' || local) ? 'pretty' : 'json');
}

/** The same lines as the JSON, formatted for a terminal; in-process (sync), so nothing is lost at exit. */
const prettyStream = () => pinoPretty({ sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' });

/**
 * Structured JSON logs (pino) with the request id on every line written while a request runs.
 * Only the path is logged, never the query string, and credentials are redacted. With
 * LOG_FORMAT=pretty (the default on a development terminal) the lines are formatted by pino-pretty.
 */
@Module({})
export class LoggingModule {
  /** `destination`: the JSON lines go there instead of stdout (the tests' in-process app keeps them to read). */
  static forRoot(destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig): Params => ({
            // nestjs-pino's default '{/*splat}' only matches '/' under Nest 12's Fastify middleware.
            forRoutes: [{ path: '{*all}', method: RequestMethod.ALL }],
            pinoHttp: destination ? [requestLogOptions(config), destination] : withFormat(config, requestLogOptions(config)),
          }),
        }),
      ],
    };
  }
}

/** pino-http's options: the request id, redaction, the path without its query, the level and shape of each completion line. */
export function requestLogOptions(config: AppConfig): PinoHttpOptions {
  return {
    level: config.log.level,
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    // Lines logged during a request carry just its id; the completion line has the details.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: IncomingMessage & { originalUrl?: string }) => ({
        method: req.method,
        path: (req.originalUrl ?? req.url ?? '').split('?')[0],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: LoggedRequest) => QUIET_PATHS.test(req.originalUrl ?? req.url ?? '') },
    customLogLevel: requestLogLevel,
    // pino-http gives every 5xx completion line an error with a stack (its own 'failed with
    // status code' when none was thrown): an answer is one line; a real bug's stack is logged
    // once, by AppErrorFilter ("Unhandled error").
    customErrorObject: completionWithoutStack,
  };
}

type PinoHttpOptions = Exclude<NonNullable<Params['pinoHttp']>, unknown[] | { write: unknown }>;

/** JSON to stdout (pino's own fast destination), or the pretty stream. */
function withFormat(config: AppConfig, options: PinoHttpOptions): Params['pinoHttp'] {
  return chooseLogFormat(config.log.format, config.env, process.stdout.isTTY === true, config.local) === 'pretty' ? [options, prettyStream()] : options;
}
