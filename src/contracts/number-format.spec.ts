import { formatInteger } from './number-format';

describe('formatInteger', () => {
  it('writes whole numbers in US English exactly as Intl does', () => {
    const values = [0, 1, 9, 10, 999, 1000, 1001, 9999, 10_000, 123_456, 999_999, 1_000_000, 1_234_567_890, Number.MAX_SAFE_INTEGER];
    for (const value of [...values, ...values.map((v) => -v), ...Array.from({ length: 2000 }, (_, i) => i * 997)]) {
      for (const tag of ['en-US', 'en']) expect(formatInteger(value, tag)).toBe(value.toLocaleString(tag));
    }
  });

  it('leaves fractions, unsafe integers and other languages to Intl', () => {
    expect(formatInteger(1234.5, 'en-US')).toBe('1,234.5');
    expect(formatInteger(2 ** 60, 'en-US')).toBe((2 ** 60).toLocaleString('en-US'));
    expect(formatInteger(1234, 'de')).toBe('1.234');
  });
});
