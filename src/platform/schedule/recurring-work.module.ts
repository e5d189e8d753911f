import { Module } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { BullmqFleetScheduler } from './bullmq-fleet-scheduler.adapter';
import { FleetScheduler } from './fleet-scheduler.port';
import { RecurringWork } from './recurring-work';

/**
 * RecurringWork, one per process: modules import this module and register their tasks with it.
 * With Redis its tasks run once per period across the workers (BullMQ job schedulers); the
 * scheduler connects only where the tasks are scheduled (the worker).
 */
@Module({
  providers: [
    RecurringWork,
    { provide: FleetScheduler, inject: [AppConfig], useFactory: (config: AppConfig) => (config.redis.url ? new BullmqFleetScheduler(config) : null) },
  ],
  exports: [RecurringWork],
})
export class RecurringWorkModule {}
