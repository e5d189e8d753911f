import { Module } from '@nestjs/common';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { MailModule } from 'src/platform/mail/mail.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { RedisModule } from 'src/platform/redis/redis.module';
import { BullBoardQueueDashboard } from './adapters/http/bull-board.queue-dashboard';
import { OpsPageData } from './adapters/pages/ops.pages';
import { OpsService } from './application/ops.service';

/**
 * The ops screens, for admins only: the data of the admin pages (/admin, /admin/errors, and
 * /admin/queues without Redis: its page data section) and the bull-board queue dashboard at
 * /admin/queues with Redis (mounted as the web process starts; everyone but admins gets the
 * site's 404 page there). No domain or tables of its own: it reads the error log,
 * the mail outbox's give-ups, Redis and the job queues.
 */
@Module({
  imports: [AuthGuardsModule, ErrorLogModule, MailModule, QueueModule, RedisModule, PagesModule],
  providers: [OpsService, OpsPageData, BullBoardQueueDashboard],
})
export class OpsModule {}
