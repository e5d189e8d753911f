import { signInDelayMs } from './sign-in-throttle';

describe('signInDelayMs', () => {
  it('is free for the first ten failures, then doubles from half a second up to five seconds', () => {
    expect([0, 9].map((n) => signInDelayMs(n))).toEqual([0, 0]);
    expect([10, 11, 12, 13, 14, 1_000_000].map((n) => signInDelayMs(n))).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('never waits longer than the setting (AUTH_SIGN_IN_MAX_DELAY_MS)', () => {
    expect([9, 10, 14].map((n) => signInDelayMs(n, 20))).toEqual([0, 20, 20]);
  });
});
