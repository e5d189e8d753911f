import { Module } from '@nestjs/common';
import { RecurringWork } from './recurring-work';

/** RecurringWork, one per process: modules import this module and register their tasks with it. */
@Module({ providers: [RecurringWork], exports: [RecurringWork] })
export class RecurringWorkModule {}
