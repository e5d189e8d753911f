import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from 'src/config/app-config';
import { requestIdOf } from './request-id';

const QUIET_PATHS = /^\/(healthz|readyz|assets\/|favicon)/;

/**
 * Structured JSON logs (pino) with the request id on every line written while a request runs.
 * Only the path is logged, never the query string, and credentials are redacted.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // nestjs-pino's default '{/*splat}' only matches '/' under Nest 12's Fastify middleware.
        forRoutes: [{ path: '{*all}', method: RequestMethod.ALL }],
        pinoHttp: {
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
        },
      }),
    }),
  ],
})
export class LoggingModule {}
