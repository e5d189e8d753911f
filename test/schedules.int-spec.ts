import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig, AppConfig } from 'src/config/app-config';
import { BillingHousekeeping } from 'src/modules/billing/adapters/schedule/billing-housekeeping';
import { CheckoutService } from 'src/modules/billing/application/checkout.service';
import { CreditsHousekeeping } from 'src/modules/credits/adapters/schedule/credits-housekeeping';
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
import { RecurringWork } from 'src/platform/schedule/recurring-work';

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
      const tasks = ['outbox.mail', 'credits.housekeeping', 'billing.expire-pending', 'outbox.images', 'images.housekeeping', 'guide-reports.delete-expired', 'guide-insights.flush-views'];
      expect(registry.getIntervals().sort()).toEqual([...tasks].sort());
      expect(registry.getTimeouts().sort()).toEqual(tasks.map((name) => `${name}.first`).sort());
    } finally {
      await app.close();
      jest.restoreAllMocks();
    }
  });
});
