import type { ProgressState } from 'src/contracts/progress';
import { ProgressCountRepository } from '../domain/progress-count-repository.port';

/** The anonymous solved/stuck marks in memory, for specs: one per browser per level, 'none' takes it back. */
export class InMemoryProgressCountRepository extends ProgressCountRepository {
  readonly marks = new Map<string, ProgressState>();

  async record(level: number, voterHash: string, state: ProgressState): Promise<void> {
    if (state === 'none') this.marks.delete(`${level}:${voterHash}`);
    else this.marks.set(`${level}:${voterHash}`, state);
  }

  /** How many browsers marked `level` `state`. */
  count(level: number, state: ProgressState): number {
    return [...this.marks].filter(([key, mark]) => key.startsWith(`${level}:`) && mark === state).length;
  }
}
