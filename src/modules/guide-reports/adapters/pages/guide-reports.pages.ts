import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { GuideReportsPages } from 'src/contracts/guide-reports';
import { PageSections } from 'src/platform/pages/page-sections';
import { GuideReportsService } from '../../application/guide-reports.service';

/** Guide reports' section of the page data: the report form's guide (/levels/{n}/report). */
@Injectable()
export class GuideReportsPageData implements GuideReportsPages, OnModuleInit {
  constructor(
    private readonly reports: GuideReportsService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('guideReports', this);
  }

  page(number: number) {
    return this.reports.pageData(number);
  }
}
