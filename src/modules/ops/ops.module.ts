import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { RedisModule } from 'src/platform/redis/redis.module';
import { BullBoardQueueDashboard, type NotFoundPage } from './adapters/http/bull-board.queue-dashboard';
import { OpsService } from './application/ops.service';

/**
 * The ops screens, for admins only: the data of the admin pages (/admin, /admin/errors, and
 * /admin/queues without Redis; read by the SSR bridge through OpsService) and the bull-board queue
 * dashboard at /admin/queues with Redis. No domain or tables of its own: it reads the error log and
 * the job queues.
 */
@Module({
  imports: [AuthGuardsModule, ErrorLogModule, QueueModule, RedisModule],
  providers: [OpsService, BullBoardQueueDashboard],
  exports: [OpsService],
})
export class OpsModule {
  /** Mounts the queue dashboard on the web app's Fastify instance (only with Redis); call before listening. */
  static registerQueueDashboard(app: NestFastifyApplication, notFound: NotFoundPage): Promise<void> {
    return app.get(BullBoardQueueDashboard).register(app, notFound);
  }
}

export { OpsService } from './application/ops.service';
