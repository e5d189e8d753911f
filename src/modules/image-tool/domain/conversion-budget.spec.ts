import { planImageSize } from 'src/contracts/images';
import { ConversionBudget, MAX_DEADLINE_MS, MIN_DEADLINE_MS } from './conversion-budget';

describe('ConversionBudget', () => {
  it('gives a small image the old 60 s and grows with the pixels the network produces', () => {
    const budget = new ConversionBudget(1);
    expect(budget.deadlineMs('ai-2x', planImageSize(64, 48, 'ai-2x'))).toBe(MIN_DEADLINE_MS);
    // 2048x1536 in, 4096x3072 out: 12.6 MP x 2.5 CPU-s x 6 = 189 s on one thread.
    const photo = budget.deadlineMs('ai-2x', planImageSize(4032, 3024, 'ai-2x'));
    expect(photo / 1000).toBeCloseTo(189, 0);
    expect(budget.deadlineMs('ai-2x-fast', planImageSize(4032, 3024, 'ai-2x-fast'))).toBeLessThan(photo);
  });

  it('shares the work among the inference threads, never under 60 s nor over 20 minutes', () => {
    const plan = planImageSize(4032, 3024, 'ai-2x');
    expect(new ConversionBudget(2).deadlineMs('ai-2x', plan)).toBeCloseTo(new ConversionBudget(1).deadlineMs('ai-2x', plan) / 2, -3);
    expect(new ConversionBudget(64).deadlineMs('ai-2x', plan)).toBe(MIN_DEADLINE_MS);
    expect(new ConversionBudget(1).deadlineMs('ai-2x', planImageSize(4800, 4800, 'ai-2x', { scale: 1, width: null }))).toBe(MAX_DEADLINE_MS);
    expect(() => new ConversionBudget(0)).toThrow(RangeError);
  });

  it('counts the classic styles by their result', () => {
    expect(ConversionBudget.cpuSeconds('enhance', planImageSize(1920, 1080, 'enhance'))).toBeCloseTo(3840 * 2160 * 0.9e-6, 3);
  });
});
