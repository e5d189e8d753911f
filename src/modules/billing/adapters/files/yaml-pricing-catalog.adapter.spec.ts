import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from 'src/config/app-config';
import { readPricingFile } from './yaml-pricing-catalog.adapter';

describe('the pricing file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pricing-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const file = async (text: string) => {
    const path = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(path, text);
    return path;
  };

  it('reads the shipped packs: whole cents, one most popular', () => {
    const packs = readPricingFile(resolve('content/pricing.yaml'));
    expect(packs.map((p) => p.id)).toEqual(['starter', 'popular', 'pro']);
    expect(packs.filter((p) => p.most_popular)).toHaveLength(1);
    for (const pack of packs) {
      expect(Number.isInteger(pack.price_cents)).toBe(true);
      expect(pack.currency).toBe('usd');
    }
  });

  it('stops the start on a bad file, naming the file and each field', async () => {
    const cases: [string, RegExp][] = [
      ['packs:\n  - id: a\n    name: A\n    credits: 10\n    validity_days: 30\n    price_cents: 4.99\n', /packs\.0\.price_cents: .*expected int/],
      ['packs:\n  - id: Bad Id\n    name: A\n    credits: 10\n    validity_days: 30\n    price_cents: 499\n', /packs\.0\.id: lower-case letters/],
      ['packs: []\n', /packs: .*at least 1|packs: Too small/],
      ['packs: [{id: a, name: A, credits: 1, validity_days: 1, price_cents: 100}, {id: a, name: B, credits: 1, validity_days: 1, price_cents: 100}]\n', /pack ids must be unique/],
      ['packs: [{id: a\n', /.+/],
    ];
    for (const [text, problem] of cases) {
      const path = await file(text);
      const error = (() => {
        try {
          readPricingFile(path);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).toContain(path);
      expect((error as ConfigError).problems.join('\n')).toMatch(problem);
    }
  });
});
