import { RouteConfig } from '@nestjs/platform-fastify';

/** Per-client request budget for one route, counted in Redis when configured (see registerRateLimit). */
export const RateLimit = (max: number, timeWindowMs: number) => RouteConfig({ rateLimit: { max, timeWindow: timeWindowMs } });
