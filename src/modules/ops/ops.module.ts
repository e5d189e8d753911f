import { Module } from '@nestjs/common';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { MailModule } from 'src/platform/mail/mail.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { RedisModule } from 'src/platform/redis/redis.module';
import { BullBoardQueueDashboard } from './adapters/http/bull-board.queue-dashboard';
import { OpsService } from './application/ops.service';

/**
 * The ops screens, for admins only: the data of the admin pages (/admin, /admin/errors, and
 * /admin/queues without Redis; read by the SSR bridge through OpsService) and the bull-board queue
 * dashboard at /admin/queues with Redis (mounted by the SSR module, which answers everyone but
 * admins there with the site's 404 page). No domain or tables of its own: it reads the error log,
 * the mail outbox's give-ups, Redis and the job queues.
 */
@Module({
  imports: [AuthGuardsModule, ErrorLogModule, MailModule, QueueModule, RedisModule],
  providers: [OpsService, BullBoardQueueDashboard],
  exports: [OpsService, BullBoardQueueDashboard],
})
export class OpsModule {}
