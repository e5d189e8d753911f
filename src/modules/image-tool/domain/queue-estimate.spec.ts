import { defaultRates, estimateWait, MIN_HISTORY_JOBS, MIN_MEGAPIXELS, ratesOrDefault, type QueuedWork, type RecentRates } from './queue-estimate';

// Seconds per output megapixel; a typical recent job wrote 1 MP.
const recent: Record<string, RecentRates> = {
  'ai-2x': { perMegapixel: { low: 4, typical: 5, high: 7 }, megapixels: 1, jobs: 20 },
  sketch: { perMegapixel: { low: 0.5, typical: 1, high: 2 }, megapixels: 1, jobs: 20 },
};
const rates = (conversion: string) => recent[conversion] ?? defaultRates(conversion as 'ai-4x');
const job = (conversion: 'ai-2x' | 'sketch' | 'ai-4x', megapixels: number | null = 1, runningFor: number | null = null): QueuedWork => ({ conversion, megapixels, runningFor });

describe('estimateWait', () => {
  it('counts every job ahead, the running one included, and shows a range', () => {
    // The case: one job running for 1 s, one queued, then ours; one worker; all 1 MP.
    const estimate = estimateWait({ mine: job('ai-2x'), ahead: [job('ai-2x', 1, 1), job('ai-2x')], slots: 1 }, rates);
    expect(estimate).toEqual({ position: 2, low: 3 + 4 + 4, typical: 4 + 5 + 5, high: 6 + 7 + 7 });
  });

  it("weighs each job by its own output megapixels; one of unknown size counts as the conversion's typical job", () => {
    // 12.6 MP (4096 x 3072) at 5 s/MP: 63 s; ahead, a 2 MP job and one not known yet (1 MP typical).
    const estimate = estimateWait({ mine: job('ai-2x', 12.58), ahead: [job('ai-2x', 2), job('ai-2x', null)], slots: 1 }, rates)!;
    expect(estimate.typical).toBeCloseTo(5 * 2 + 5 * 1 + 5 * 12.58, 1);
    // Tiny results count as MIN_MEGAPIXELS: fixed costs dominate them.
    expect(estimateWait({ mine: job('sketch', 0.0001), ahead: [], slots: 1 }, rates)!.typical).toBe(Math.round(10 * MIN_MEGAPIXELS) / 10);
  });

  it('shares the work ahead among the live workers', () => {
    const ahead = Array.from({ length: 4 }, () => job('ai-2x'));
    expect(estimateWait({ mine: job('ai-2x'), ahead, slots: 1 }, rates)!.typical).toBe(25);
    expect(estimateWait({ mine: job('ai-2x'), ahead, slots: 2 }, rates)!.typical).toBe(15);
    // Fewer jobs ahead than workers: it starts at once.
    expect(estimateWait({ mine: job('sketch'), ahead: ahead.slice(0, 1), slots: 2 }, rates)).toMatchObject({ position: 1, typical: 1 });
  });

  it('gives a running job what is left of its own time, never nothing', () => {
    expect(estimateWait({ mine: job('ai-2x', 1, 2), ahead: [], slots: 1 }, rates)).toEqual({ position: 0, low: 2, typical: 3, high: 5 });
    expect(estimateWait({ mine: job('ai-2x', 1, 60), ahead: [], slots: 1 }, rates)!.typical).toBe(0.5);
  });

  it('has no figure without a live worker', () => {
    expect(estimateWait({ mine: job('sketch'), ahead: [], slots: 0 }, rates)).toBeNull();
  });
});

describe('the default rates', () => {
  it('are the documented CPU seconds per output megapixel shared by 2 threads, with a range around them', () => {
    expect(defaultRates('ai-2x').perMegapixel).toEqual({ low: 1.25 * 0.75, typical: 1.25, high: 1.25 * 1.5 });
    expect(defaultRates('ai-2x-fast').perMegapixel.typical).toBe(0.7);
    expect(defaultRates('ai-4x').perMegapixel.typical).toBe(1.6);
    expect(defaultRates('sketch', 1).perMegapixel.typical).toBe(0.9);
    // A 4032 x 3024 photo, AI 2x to 4096 x 3072, no history, one worker: about 16 s.
    expect(estimateWait({ mine: job('ai-2x', (4096 * 3072) / 1e6), ahead: [], slots: 1 }, () => defaultRates('ai-2x'))!.typical).toBeCloseTo(15.7, 0);
  });

  it('stand in until there is enough history', () => {
    const few = { ...recent['ai-2x']!, jobs: MIN_HISTORY_JOBS - 1 };
    expect(ratesOrDefault('ai-2x', few)).toEqual(defaultRates('ai-2x'));
    expect(ratesOrDefault('ai-2x', null)).toEqual(defaultRates('ai-2x'));
    expect(ratesOrDefault('ai-2x', recent['ai-2x']!)).toBe(recent['ai-2x']);
  });
});
