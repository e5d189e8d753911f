import type { ProgressState } from 'src/contracts/progress';

/** How many browsers marked each level solved or stuck: one row per browser (a hash), never who. */
export abstract class ProgressCountRepository {
  /** This browser's mark on a level, replacing its earlier one; 'none' takes it back. */
  abstract record(level: number, voterHash: string, state: ProgressState, at: Date): Promise<void>;
  /**
   * Where this browser stopped on each ladder it sent (hints revealed at the tap), replacing its
   * earlier stop on that ladder; 'none' takes back its stops on the level.
   */
  abstract recordStops(level: number, voterHash: string, state: ProgressState, ladders: Record<string, number>, at: Date): Promise<void>;
}
