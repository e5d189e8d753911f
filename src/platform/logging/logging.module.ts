import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import pinoPretty from 'pino-pretty';
import { AppConfig } from 'src/config/app-config';
import { requestIdOf } from './request-id';

const QUIET_PATHS = /^\/(healthz|readyz|assets\/|favicon)/;

/** LOG_FORMAT when set; otherwise pretty for a person at a development terminal, JSON for machines. */
export function chooseLogFormat(configured: 'json' | 'pretty' | undefined, env: AppConfig['env'], stdoutIsTty: boolean): 'json' | 'pretty' {
  return configured ?? (stdoutIsTty && env === 'development' ? 'pretty' : 'json');
}

/** The same lines as the JSON, formatted for a terminal; in-process (sync), so nothing is lost at exit. */
const prettyStream = () => pinoPretty({ sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' });

/**
 * Structured JSON logs (pino) with the request id on every line written while a request runs.
 * Only the path is logged, never the query string, and credentials are redacted. With
 * LOG_FORMAT=pretty (the default on a development terminal) the lines are formatted by pino-pretty.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig): Params => ({
        // nestjs-pino's default '{/*splat}' only matches '/' under Nest 12's Fastify middleware.
        forRoutes: [{ path: '{*all}', method: RequestMethod.ALL }],
        pinoHttp: withFormat(config, {
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
          autoLogging: { ignore: (req: IncomingMessage & { originalUrl?: string }) => QUIET_PATHS.test(req.originalUrl ?? req.url ?? '') },
        }),
      }),
    }),
  ],
})
export class LoggingModule {}

type PinoHttpOptions = Exclude<NonNullable<Params['pinoHttp']>, unknown[] | { write: unknown }>;

/** JSON to stdout (pino's own fast destination), or the pretty stream. */
function withFormat(config: AppConfig, options: PinoHttpOptions): Params['pinoHttp'] {
  return chooseLogFormat(config.log.format, config.env, process.stdout.isTTY === true) === 'pretty' ? [options, prettyStream()] : options;
}
