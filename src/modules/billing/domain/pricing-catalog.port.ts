import type { CreditPack } from 'src/contracts/billing';

/** The credit packs on sale (content/pricing.yaml). Prices and credits come only from here, never from a client. */
export abstract class PricingCatalog {
  abstract packs(): CreditPack[];
  pack(id: string): CreditPack | undefined {
    return this.packs().find((pack) => pack.id === id);
  }
}
