import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { parse } from 'yaml';
import { z } from 'zod';
import { AppConfig, ConfigError } from 'src/config/app-config';
import type { CreditPack } from 'src/contracts/billing';
import { PricingCatalog } from '../../domain/pricing-catalog.port';

const packSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'lower-case letters, digits and "-" (at most 40)'),
  name: z.string().trim().min(1).max(40),
  credits: z.number().int().min(1).max(1_000_000),
  validity_days: z.number().int().min(1).max(3650),
  // Integer cents: money is never a float. Stripe's minimum charge is 50 cents.
  price_cents: z.number().int().min(50).max(1_000_000),
  most_popular: z.boolean().default(false),
  features: z.array(z.string().trim().min(1).max(120)).max(10).default([]),
});

const pricingFileSchema = z
  .strictObject({ packs: z.array(packSchema).min(1).max(12) })
  .refine((file) => new Set(file.packs.map((p) => p.id)).size === file.packs.length, 'pack ids must be unique')
  .refine((file) => file.packs.filter((p) => p.most_popular).length <= 1, 'at most one pack is most_popular');

/** Reads and checks CONTENT_DIR/pricing.yaml at start while payments are on: a bad file stops the start naming the problem. */
export function readPricingFile(path: string): CreditPack[] {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`${path}: ${(error as Error).message}`]);
  }
  const parsed = pricingFileSchema.safeParse(raw);
  // A ConfigError: the process stops with the problems listed, no stack trace.
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${path}: ${i.path.join('.') || '(file)'}: ${i.message}`));
  return parsed.data.packs.map((pack) => ({ ...pack, currency: 'usd' as const }));
}

@Injectable()
export class YamlPricingCatalog extends PricingCatalog implements OnModuleInit {
  private loaded: CreditPack[] = [];

  constructor(private readonly config: AppConfig) {
    super();
  }

  onModuleInit(): void {
    if (this.config.payments.enabled) this.loaded = readPricingFile(join(this.config.content.dir, 'pricing.yaml'));
  }

  packs(): CreditPack[] {
    return this.loaded;
  }
}
