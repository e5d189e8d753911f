import { Logger } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Queue } from 'bullmq';
import { Test } from '@nestjs/testing';
import { MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig, AppConfig } from 'src/config/app-config';
import { BillingHousekeeping } from 'src/modules/billing/adapters/schedule/billing-housekeeping';
import { CheckoutService } from 'src/modules/billing/application/checkout.service';
import { CreditsHousekeeping } from 'src/modules/credits/adapters/schedule/credits-housekeeping';
import { CreditRemindersService } from 'src/modules/credits/application/credit-reminders.service';
import { CreditsService } from 'src/modules/credits/application/credits.service';
import { GuideViewsFlush } from 'src/modules/guide-insights/adapters/schedule/guide-views-flush';
import { GuideViews } from 'src/modules/guide-insights/application/guide-views.service';
import { GuideReportsHousekeeping } from 'src/modules/guide-reports/adapters/schedule/guide-reports-housekeeping';
import { GuideReportsService } from 'src/modules/guide-reports/application/guide-reports.service';
import { ImageJobsHousekeeping } from 'src/modules/image-tool/adapters/schedule/image-jobs-housekeeping';
import { ImageConversionRunner } from 'src/modules/image-tool/application/image-conversion.runner';
import { MikroOrmMailOutbox } from 'src/platform/mail/mikro-orm-mail-outbox.adapter';
import { OutboxRelay } from 'src/platform/outbox/outbox-relay';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { BullmqFleetScheduler, SCHEDULE_QUEUE } from 'src/platform/schedule/bullmq-fleet-scheduler.adapter';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { REDIS_URL, testRedisPrefix } from './support/services';
import { until } from './support/until';

/**
 * Every piece of recurring work runs soon after start AND on its interval. (Two schedule
 * decorators on one method silently keep only one of them: the intervals never ran.)
 */
describe('the scheduled work', () => {
  it('registers a start-up run and an interval for each housekeeper and each outbox', async () => {
    const idle = { housekeeping: async () => ({}), expireStalePending: async () => 0, waitingForTheQueue: async () => [] };
    const app = await Test.createTestingModule({
      imports: [ScheduleModule.forRoot()],
      providers: [
        RecurringWork,
        OutboxRelay,
        MikroOrmMailOutbox,
        CreditsHousekeeping,
        BillingHousekeeping,
        ImageJobsHousekeeping,
        GuideReportsHousekeeping,
        GuideViewsFlush,
        { provide: AppConfig, useValue: loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true' }) },
        { provide: EntityManager, useValue: {} },
        { provide: JobQueue, useValue: {} },
        { provide: CreditsService, useValue: idle },
        { provide: CreditRemindersService, useValue: { run: async () => ({}) } },
        { provide: CheckoutService, useValue: idle },
        { provide: ImageConversionRunner, useValue: idle },
        { provide: GuideReportsService, useValue: idle },
        { provide: GuideViews, useValue: { flush: async () => 0 } },
        { provide: MikroORM, useValue: {} },
      ],
    }).compile();
    jest.spyOn(OutboxRelay.prototype, 'relay').mockResolvedValue(0);
    await app.init();
    try {
      const registry = app.get(SchedulerRegistry);
      const tasks = ['outbox.mail', 'credits.housekeeping', 'credits.reminders', 'billing.expire-pending', 'outbox.images', 'images.housekeeping', 'guide-reports.delete-expired', 'guide-reports.digest', 'guide-insights.flush-views'];
      expect(registry.getIntervals().sort()).toEqual([...tasks].sort());
      expect(registry.getTimeouts().sort()).toEqual(tasks.map((name) => `${name}.first`).sort());
    } finally {
      await app.close();
      jest.restoreAllMocks();
    }
  });
});

describe('the recurring work of a fleet (two workers on one Redis)', () => {
  const redis = testRedisPrefix();
  const config = loadConfig({}, { REDIS_URL, REDIS_KEY_PREFIX: redis.prefix });
  /** A MikroORM stand-in: each run's context forks it. */
  const orm = { em: { name: 'default', fork: () => ({ name: 'default' }) } } as unknown as MikroORM;
  const works: RecurringWork[] = [];
  const lines: string[] = [];

  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'debug').mockImplementation((...args: unknown[]) => void lines.push(String(args[0])));
    jest.spyOn(Logger.prototype, 'log').mockImplementation((...args: unknown[]) => void lines.push(String(args[0])));
  });

  afterAll(async () => {
    for (const work of works) await work.onModuleDestroy();
    await redis.drop();
    jest.restoreAllMocks();
  });

  it('runs each task once per period across both, and removes the schedules of tasks that no longer exist', async () => {
    // A schedule left by an older version, for a task nobody registers any more.
    const old = new Queue(SCHEDULE_QUEUE, { connection: { url: REDIS_URL }, prefix: bullmqPrefix(config) });
    await old.upsertJobScheduler('gone.task', { every: 60_000 });
    await old.close();

    const runs: { worker: number; at: number }[] = [];
    for (const worker of [1, 2]) {
      const work = new RecurringWork(orm, new SchedulerRegistry(), new BullmqFleetScheduler(config));
      work.register({ name: 'test.tick', firstDelayMs: 0, everyMs: 300, run: async () => void runs.push({ worker, at: Date.now() }) });
      works.push(work);
    }
    for (const work of works) work.onApplicationBootstrap();

    await until('six runs', () => runs.length >= 6, 20_000);
    // Each run is one period's job (its id names the period): none ran twice, in either worker.
    const periods = lines.filter((line) => line.startsWith('Recurring task test.tick: the fleet')).map((line) => line.split(' ').pop());
    expect(periods.length).toBeGreaterThanOrEqual(6);
    expect(new Set(periods).size).toBe(periods.length);
    expect(lines).toContain('Recurring task gone.task is no longer registered: its schedule removed');
    const check = new Queue(SCHEDULE_QUEUE, { connection: { url: REDIS_URL }, prefix: bullmqPrefix(config) });
    try {
      expect((await check.getJobSchedulers(0, -1)).map((s) => s.key)).toEqual(['test.tick']);
    } finally {
      await check.close();
    }
  });
});
