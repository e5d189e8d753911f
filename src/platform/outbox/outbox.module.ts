import { Module } from '@nestjs/common';
import { QueueModule } from 'src/platform/queue/queue.module';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';
import { OutboxRelay } from './outbox-relay';

/** OutboxRelay, one per process: modules with an outbox register it from onModuleInit. */
@Module({ imports: [QueueModule, RecurringWorkModule], providers: [OutboxRelay], exports: [OutboxRelay] })
export class OutboxModule {}
