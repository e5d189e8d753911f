/**
 * At most `concurrency` password hashes at once in this process, and at most `queue` waiting:
 * argon2 takes ~30 ms of a core per call, so a flood of sign-ins must not take every core from
 * page rendering. A call that finds the queue full is refused at once (`onFull`), not held.
 */
export class HashingGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limits: { concurrency: number; queue: number },
    private readonly onFull: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.queue) throw this.onFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      // Hands the slot straight to the next waiter (running stays the same), or frees it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
