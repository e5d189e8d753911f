import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { OutageLog } from 'src/platform/logging/outage-log';
import { FleetScheduler } from './fleet-scheduler.port';

/** A piece of work that runs soon after start and then every `everyMs`, where the jobs run. */
export interface RecurringTask {
  /** Names the task in the schedule and in logs: '<module>.<what>'. */
  name: string;
  /** On the in-process timers; the fleet's schedule (Redis) runs a new task at once, then every period. */
  firstDelayMs: number;
  everyMs: number;
  run(): Promise<unknown>;
  /**
   * What the first run does, when it differs from the others (the image jobs' resume after a
   * restart). On the in-process timers only: with Redis every run of the fleet's schedule is `run`.
   */
  firstRun?(): Promise<unknown>;
  /**
   * Scheduled in every process that registers it, not only where the jobs run: for work on the
   * process's own memory (each web process's guide-view counts), which no other process can do.
   */
  everyProcess?: boolean;
  /** Runs once more when the process shuts down (after HTTP has drained, before the database closes). */
  atShutdown?: boolean;
}

/**
 * The one registry of recurring work, as JobProcessors is for jobs. A module registers its tasks
 * from onModuleInit:
 *   onModuleInit() { this.work.register({ name: 'credits.housekeeping', firstDelayMs: 2_000, everyMs: 60_000, run: () => ... }); }
 * The tasks are scheduled only where ScheduleModule is imported (the worker, or the web process
 * without Redis); elsewhere nothing runs. With Redis (a FleetScheduler) each runs once per period
 * across all the workers, not once per worker; without, this process's timers run it. Each run has a MikroORM context of its own (no request
 * is running), a failure is logged with the task's name, and a task never runs twice at once.
 * A task marked `everyProcess` is scheduled wherever it is registered, one marked `atShutdown`
 * runs a last time as the process stops.
 */
@Injectable()
export class RecurringWork implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RecurringWork');
  /** A database outage fails every task on every tick: logged once, then at most once a minute. */
  private readonly databaseOutage = new OutageLog(this.logger, 'PostgreSQL (recurring work)');
  private readonly tasks = new Map<string, RecurringTask>();
  private readonly running = new Map<string, Promise<void>>();
  /** The timers of `everyProcess` tasks in a process without ScheduleModule. */
  private readonly ownTimers: NodeJS.Timeout[] = [];

  constructor(
    private readonly orm: MikroORM,
    @Optional() private readonly schedule?: SchedulerRegistry,
    // Inject names the token: the type (with null) would reach Nest's metadata as Object.
    @Optional() @Inject(FleetScheduler) private readonly fleet?: FleetScheduler | null,
  ) {}

  register(task: RecurringTask): void {
    if (this.tasks.has(task.name)) throw new Error(`A recurring task ${task.name} is already registered`);
    if (!(task.everyMs > 0) || !(task.firstDelayMs >= 0)) throw new Error(`Recurring task ${task.name} needs a period above 0 and a first delay of 0 or more`);
    this.tasks.set(task.name, task);
  }

  onApplicationBootstrap(): void {
    // Where the jobs run with Redis, the fleet's schedule runs the shared tasks (once per period
    // across the workers); started without waiting: until Redis answers it keeps connecting.
    const fleet = this.schedule ? this.fleet : undefined;
    if (fleet) {
      const shared = [...this.tasks.values()].filter((task) => !task.everyProcess);
      void fleet.start(shared, (name) => this.run(name)).catch((error: unknown) => this.logger.error({ err: error }, 'Scheduling the recurring work in Redis failed'));
    }
    for (const task of this.tasks.values()) {
      if (task.everyProcess ? false : !this.schedule || fleet) continue;
      const first = setTimeout(() => void this.run(task.name, true), task.firstDelayMs);
      const every = setInterval(() => void this.run(task.name), task.everyMs);
      if (this.schedule) {
        // Timeouts and intervals go into @nestjs/schedule's registry, which clears them at shutdown.
        this.schedule.addTimeout(`${task.name}.first`, first);
        this.schedule.addInterval(task.name, every);
      } else {
        // Not where the jobs run, but this work is the process's own; unref: it never keeps a process alive.
        this.ownTimers.push(first.unref(), every.unref());
      }
    }
  }

  /**
   * Shutdown, while the database is still open (it closes before onApplicationShutdown): the own
   * timers stop, and each `atShutdown` task runs once more, after any run already going.
   */
  async onModuleDestroy(): Promise<void> {
    for (const timer of this.ownTimers.splice(0)) clearTimeout(timer);
    if (this.schedule && this.fleet) await this.fleet.stop();
    const last = [...this.tasks.values()].filter((task) => task.atShutdown);
    await Promise.all(last.map(async (task) => {
      await this.running.get(task.name);
      await this.run(task.name);
    }));
  }

  /**
   * Runs a task now; resolves when it is done and never rejects (a failure is logged). While it is
   * running, a tick only waits for that run; the first run, when it differs, follows it.
   */
  run(name: string, first = false): Promise<void> {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`No recurring task ${name} is registered`);
    const current = this.running.get(name);
    if (current) return first && task.firstRun ? current.then(() => this.run(name, true)) : current;
    const run = this.runOnce(task, first).finally(() => this.running.delete(name));
    this.running.set(name, run);
    return run;
  }

  private async runOnce(task: RecurringTask, first: boolean): Promise<void> {
    try {
      await RequestContext.create(this.orm.em, () => (first && task.firstRun ? task.firstRun() : task.run()));
      this.databaseOutage.recovered();
    } catch (error) {
      if (isDatabaseUnavailable(error)) return this.databaseOutage.failed(`the database is unreachable (task ${task.name} runs again on its next tick)`);
      this.logger.warn({ err: error }, `Recurring task ${task.name} failed`);
    }
  }
}
