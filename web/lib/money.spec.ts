import { formatUsd } from './money';

describe('formatUsd', () => {
  it('writes every amount with its cents, whole dollars and nothing included', () => {
    expect(formatUsd(299)).toBe('$2.99');
    expect(formatUsd(200)).toBe('$2.00');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1)).toBe('$0.01');
    expect(formatUsd(150_000)).toBe('$1,500.00');
  });

  it('writes a negative amount with a sign', () => {
    expect(formatUsd(-250)).toBe('-$2.50');
  });
});
