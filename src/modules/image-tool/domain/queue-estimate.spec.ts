import { estimateWait, type DurationSpread } from './queue-estimate';

const spreads: Record<string, DurationSpread> = {
  'ai-2x': { low: 4, typical: 5, high: 7 },
  sketch: { low: 0.5, typical: 1, high: 2 },
};
const spread = (conversion: string) => spreads[conversion] ?? null;

describe('estimateWait', () => {
  it('counts every job ahead, the running one included, and shows a range', () => {
    // The case: one job running for 1 s, one queued, then ours; one worker.
    const estimate = estimateWait(
      { mine: { conversion: 'ai-2x', runningFor: null }, ahead: [{ conversion: 'ai-2x', runningFor: 1 }, { conversion: 'ai-2x', runningFor: null }], slots: 1 },
      spread,
    );
    expect(estimate).toEqual({ position: 2, low: 3 + 4 + 4, typical: 4 + 5 + 5, high: 6 + 7 + 7 });
  });

  it('shares the work ahead among the live workers', () => {
    const ahead = Array.from({ length: 4 }, () => ({ conversion: 'ai-2x' as const, runningFor: null }));
    const one = estimateWait({ mine: { conversion: 'ai-2x', runningFor: null }, ahead, slots: 1 }, spread)!;
    const two = estimateWait({ mine: { conversion: 'ai-2x', runningFor: null }, ahead, slots: 2 }, spread)!;
    expect(one.typical).toBe(25);
    expect(two.typical).toBe(15);
    // Fewer jobs ahead than workers: it starts at once.
    expect(estimateWait({ mine: { conversion: 'sketch', runningFor: null }, ahead: ahead.slice(0, 1), slots: 2 }, spread)).toMatchObject({ position: 1, typical: 1 });
  });

  it("gives a running job what is left of its own time, never nothing", () => {
    expect(estimateWait({ mine: { conversion: 'ai-2x', runningFor: 2 }, ahead: [], slots: 1 }, spread)).toEqual({ position: 0, low: 2, typical: 3, high: 5 });
    expect(estimateWait({ mine: { conversion: 'ai-2x', runningFor: 60 }, ahead: [], slots: 1 }, spread)!.typical).toBe(0.5);
  });

  it('has no figure without history for a conversion in the queue, or without a live worker', () => {
    expect(estimateWait({ mine: { conversion: 'ai-4x', runningFor: null }, ahead: [], slots: 1 }, spread)).toBeNull();
    expect(estimateWait({ mine: { conversion: 'sketch', runningFor: null }, ahead: [{ conversion: 'cartoon', runningFor: null }], slots: 1 }, spread)).toBeNull();
    expect(estimateWait({ mine: { conversion: 'sketch', runningFor: null }, ahead: [], slots: 0 }, spread)).toBeNull();
  });
});
