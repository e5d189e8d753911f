import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { paymentsEnabled } from 'src/modules/credits';
import { SitemapSources } from 'src/platform/pages/sitemap-sources';

/** The refund policy is a content page (content/pages/refund-policy.md) about payments: the footer links it, and the sitemap lists it, only while they are on. */
const REFUND_POLICY_PATH = '/refund-policy';

/** What billing keeps out of sitemap.xml. (/pricing is the route table's, listed with payments on: `sitemap: 'with-payments'`.) */
@Injectable()
export class BillingSitemap implements OnModuleInit {
  constructor(
    private readonly sitemap: SitemapSources,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.sitemap.add({ name: 'billing', withheld: () => (paymentsEnabled(this.config) ? [] : [REFUND_POLICY_PATH]) });
  }
}
