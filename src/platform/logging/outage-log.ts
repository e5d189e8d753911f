import type { Logger } from '@nestjs/common';

/**
 * Logs an outage of one dependency quietly: the first failure at once, then at most one line per
 * `everyMs` while it lasts (how many failures since), and one line when it is over. Without it a
 * worker wrote 68 error lines in a minute of Redis being down, one per failed call.
 */
export class OutageLog {
  private downSince?: number;
  private lastLineAt = 0;
  private failures = 0;

  constructor(
    private readonly logger: Pick<Logger, 'error' | 'warn' | 'log'>,
    /** Names the dependency and who lost it: 'Redis (job workers)'. */
    private readonly what: string,
    private readonly everyMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A failed call; `detail` says what failed, in words (never a secret or an address). */
  failed(detail: string): void {
    const now = this.now();
    this.failures++;
    if (this.downSince === undefined) {
      this.downSince = now;
      this.lastLineAt = now;
      this.failures = 0;
      this.logger.error(`${this.what} is unavailable: ${detail} (logged again at most once every ${Math.round(this.everyMs / 1000)} s while it lasts)`);
      return;
    }
    if (now - this.lastLineAt < this.everyMs) return;
    this.lastLineAt = now;
    this.logger.error(`${this.what} still unavailable after ${Math.round((now - this.downSince) / 1000)} s: ${detail} (${this.failures} failure(s) since the last line)`);
    this.failures = 0;
  }

  /** A call that worked: ends the outage (one line) if there was one. */
  recovered(): void {
    if (this.downSince === undefined) return;
    this.logger.log(`${this.what} is back after ${Math.round((this.now() - this.downSince) / 1000)} s`);
    this.downSince = undefined;
  }
}
