import { ApiTags } from '@nestjs/swagger';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness.service';

/** Liveness for the process manager, readiness for the load balancer. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  /** 503 only when pages cannot be served (database down, schema behind); degraded answers 200. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.readiness.report();
    void reply.status(report.status === 'unavailable' ? 503 : 200).header('cache-control', 'no-store');
    return report;
  }
}
