import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ErrorScope, OpsPages } from 'src/contracts/ops';
import { PageSections } from 'src/platform/pages/page-sections';
import { OpsService } from '../../application/ops.service';

/** Ops' section of the page data: /admin, /admin/errors and /admin/queues (admins only). */
@Injectable()
export class OpsPageData implements OpsPages, OnModuleInit {
  constructor(
    private readonly ops: OpsService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('ops', this);
  }

  errors(scope: ErrorScope) {
    return this.ops.errorGroups(scope);
  }

  async queues() {
    return this.ops.queues();
  }

  attention() {
    return this.ops.attention();
  }
}
