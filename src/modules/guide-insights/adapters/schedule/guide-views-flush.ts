import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { GuideViews } from '../../application/guide-views.service';

/**
 * Writes the guide views this process counted, every GUIDE_VIEWS_FLUSH_MS and once more at
 * shutdown. In every process (the counts are in this one's memory), not only where the jobs run; a
 * process that serves no pages (the worker) has nothing to write and touches no database.
 */
@Injectable()
export class GuideViewsFlush implements OnModuleInit {
  constructor(
    private readonly work: RecurringWork,
    private readonly views: GuideViews,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const every = this.config.guideViewsFlushMs;
    this.work.register({ name: 'guide-insights.flush-views', firstDelayMs: every, everyMs: every, everyProcess: true, atShutdown: true, run: () => this.views.flush() });
  }
}
