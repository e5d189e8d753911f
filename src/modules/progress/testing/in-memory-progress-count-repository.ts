import type { ProgressState } from 'src/contracts/progress';
import { ProgressCountRepository } from '../domain/progress-count-repository.port';

/**
 * The anonymous solved/stuck marks in memory, for specs: one per browser per level, 'none' takes it
 * back; and where each browser stopped on each ladder, one per browser per ladder.
 */
export class InMemoryProgressCountRepository extends ProgressCountRepository {
  readonly marks = new Map<string, ProgressState>();
  /** `level:ladder:voter` → `state:revealed`. */
  readonly stops = new Map<string, string>();

  async record(level: number, voterHash: string, state: ProgressState): Promise<void> {
    if (state === 'none') this.marks.delete(`${level}:${voterHash}`);
    else this.marks.set(`${level}:${voterHash}`, state);
  }

  async recordStops(level: number, voterHash: string, state: ProgressState, ladders: Record<string, number>): Promise<void> {
    if (state === 'none') {
      for (const key of this.stops.keys()) if (key.startsWith(`${level}:`) && key.endsWith(`:${voterHash}`)) this.stops.delete(key);
      return;
    }
    for (const [ladder, revealed] of Object.entries(ladders)) this.stops.set(`${level}:${ladder}:${voterHash}`, `${state}:${revealed}`);
  }

  /** How many browsers marked `level` `state`. */
  count(level: number, state: ProgressState): number {
    return [...this.marks].filter(([key, mark]) => key.startsWith(`${level}:`) && mark === state).length;
  }
}
