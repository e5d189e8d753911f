/** Short-lived counters shared by every web process (Redis when configured). */
export abstract class AttemptLimiter {
  /** Counts one attempt under `key`; when over `max` in the window, returns the seconds to wait. */
  abstract hit(key: string, max: number, windowMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /** The attempts counted under `key` in its current window (0 when none), and the seconds until it ends. */
  abstract peek(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /**
   * Runs `work` while holding `key`'s lock, shared by every web process (Redis; this process's
   * memory without it): calls with one key run one at a time, in arrival order or close to it.
   */
  abstract exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Forgets `key`'s attempts (a success). */
  abstract clear(key: string): Promise<void>;
}
