import { Inject, Injectable } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';

/** How long a "behind" answer is reused before the database is asked again (readiness is polled often). */
const RECHECK_AFTER_MS = 5_000;

/**
 * Which migrations of this build the database still lacks, for readiness and the start-up log.
 * Once none are pending the answer stays "up to date": new migrations only come with a new build,
 * and so with a restart.
 */
@Injectable()
export class MigrationStatus {
  private known?: { pending: string[]; at: number };
  private asking?: Promise<string[]>;

  constructor(@Inject(MikroORM) private readonly orm: MikroORM) {}

  /** The names of the pending migrations, oldest first; throws when the database cannot be asked. */
  async pending(): Promise<string[]> {
    const known = this.known;
    if (known && (known.pending.length === 0 || Date.now() - known.at < RECHECK_AFTER_MS)) return known.pending;
    this.asking ??= this.orm.migrator
      .getPending()
      .then((migrations) => {
        const pending = migrations.map((m) => m.name);
        this.known = { pending, at: Date.now() };
        return pending;
      })
      .finally(() => (this.asking = undefined));
    return this.asking;
  }

  /** Called after the migrations ran at start: nothing to ask. */
  upToDate(): void {
    this.known = { pending: [], at: Date.now() };
  }
}
