/**
 * How sign-in resists guessing without letting strangers lock an owner out (as the big sites do):
 * failures are counted per address *and client* (a hard limit: that client waits), and per address
 * from anywhere (no refusal, only a growing delay before the password is checked). Ten wrong
 * passwords from one place cannot make the owner's right password fail from another.
 */
export const SIGN_IN_THROTTLE = {
  /** Attempts for one address from one client IP before 429 (a success starts the count again). */
  perClient: { max: 10, windowMs: 15 * 60_000 },
  /** Failures for one address from every client: free up to `freeFailures`, then slowed. */
  perAddress: { freeFailures: 10, windowMs: 15 * 60_000, firstDelayMs: 500 },
  /**
   * Failed checks per address per hour are capped (AUTH_SIGN_IN_FAILURES_PER_HOUR): past the cap the
   * password is not checked at all and the owner signs in with an emailed link. Checks for one
   * address run one at a time in every web process, so the cap is exact under concurrency.
   */
  hourlyWindowMs: 60 * 60_000,
} as const;

/** The wait before checking a password, given the address's recent failures from everywhere: doubling, capped (AUTH_SIGN_IN_MAX_DELAY_MS). */
export function signInDelayMs(addressFailures: number, maxDelayMs = 5_000): number {
  const { freeFailures, firstDelayMs } = SIGN_IN_THROTTLE.perAddress;
  if (addressFailures < freeFailures) return 0;
  const doublings = Math.min(addressFailures - freeFailures, 16);
  return Math.min(firstDelayMs * 2 ** doublings, maxDelayMs);
}
