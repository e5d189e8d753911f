import { cleanText, fingerprintOf } from './error-report';

describe('fingerprintOf', () => {
  const base = { errorType: 'CLIENT_ERROR' as const, message: 'Cannot read properties of undefined', backtrace: undefined };

  it('groups the same error even when numbers and ids differ', () => {
    expect(fingerprintOf({ ...base, message: 'Level 27 failed after 120ms' })).toBe(
      fingerprintOf({ ...base, message: 'Level 33 failed after 98ms' }),
    );
    expect(fingerprintOf({ ...base, backtrace: 'Error\n    at f (/assets/a-1f2e3d4c.js:1:200)' })).toBe(
      fingerprintOf({ ...base, backtrace: 'Error\n    at f (/assets/a-9a8b7c6d.js:1:204)' }),
    );
  });

  it('keeps different errors apart', () => {
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, errorType: 'API_ERROR' }));
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, message: 'Something else' }));
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, backtrace: 'Error\n    at g (x.js:1:1)' }));
  });
});

describe('cleanText', () => {
  it('removes control characters that could forge log lines, keeping newlines', () => {
    expect(cleanText('a\u0000b\u001b[31mc\nd\re')).toBe('ab[31mc\nd\re');
  });

  it('turns blank values into undefined', () => {
    expect(cleanText('  ')).toBeUndefined();
    expect(cleanText(null)).toBeUndefined();
  });
});
