import type { CreditPack } from 'src/contracts/billing';
import { PricingCatalog } from '../domain/pricing-catalog.port';

/** Two packs, for specs (the YAML catalogue has its own spec). */
export const PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 100, validity_days: 30, price_cents: 299, currency: 'usd', most_popular: false, features: [] },
  { id: 'popular', name: 'Popular', credits: 500, validity_days: 90, price_cents: 999, currency: 'usd', most_popular: true, features: [] },
];

export class FixedPricingCatalog extends PricingCatalog {
  packs(): CreditPack[] {
    return PACKS;
  }
}
