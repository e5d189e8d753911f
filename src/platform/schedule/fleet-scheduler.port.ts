/** A recurring task as the fleet schedules it: its name and period. */
export interface FleetTask {
  name: string;
  everyMs: number;
}

/**
 * Runs each recurring task once per period across every process that runs jobs (not once per
 * process). Adapter: BullmqFleetScheduler (REDIS_URL set: one BullMQ job scheduler per task).
 * Without Redis there is one process running jobs, and RecurringWork's own timers do.
 */
export abstract class FleetScheduler {
  /** Schedules these tasks (and removes the schedules of tasks no longer registered); `run` runs one. */
  abstract start(tasks: FleetTask[], run: (name: string) => Promise<void>): Promise<void>;
  /** Stops taking runs, after the one going (shutdown). */
  abstract stop(): Promise<void>;
}
