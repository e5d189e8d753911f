import { Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { MikroORM, RequestContext } from '@mikro-orm/core';

/** A piece of work that runs soon after start and then every `everyMs`, where the jobs run. */
export interface RecurringTask {
  /** Names the task in the schedule and in logs: '<module>.<what>'. */
  name: string;
  firstDelayMs: number;
  everyMs: number;
  run(): Promise<unknown>;
  /** What the first run does, when it differs from the others (the image jobs' resume after a restart). */
  firstRun?(): Promise<unknown>;
}

/**
 * The one registry of recurring work, as JobProcessors is for jobs. A module registers its tasks
 * from onModuleInit:
 *   onModuleInit() { this.work.register({ name: 'credits.housekeeping', firstDelayMs: 2_000, everyMs: 60_000, run: () => ... }); }
 * The tasks are scheduled only where ScheduleModule is imported (the worker, or the web process
 * without Redis); elsewhere nothing runs. Each run has a MikroORM context of its own (no request
 * is running), a failure is logged with the task's name, and a task never runs twice at once.
 */
@Injectable()
export class RecurringWork implements OnApplicationBootstrap {
  private readonly logger = new Logger('RecurringWork');
  private readonly tasks = new Map<string, RecurringTask>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly orm: MikroORM,
    @Optional() private readonly schedule?: SchedulerRegistry,
  ) {}

  register(task: RecurringTask): void {
    if (this.tasks.has(task.name)) throw new Error(`A recurring task ${task.name} is already registered`);
    if (!(task.everyMs > 0) || !(task.firstDelayMs >= 0)) throw new Error(`Recurring task ${task.name} needs a period above 0 and a first delay of 0 or more`);
    this.tasks.set(task.name, task);
  }

  onApplicationBootstrap(): void {
    if (!this.schedule) return;
    // Timeouts and intervals go into @nestjs/schedule's registry, which clears them at shutdown.
    for (const task of this.tasks.values()) {
      this.schedule.addTimeout(`${task.name}.first`, setTimeout(() => void this.run(task.name, true), task.firstDelayMs));
      this.schedule.addInterval(task.name, setInterval(() => void this.run(task.name), task.everyMs));
    }
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
    } catch (error) {
      this.logger.warn({ err: error }, `Recurring task ${task.name} failed`);
    }
  }
}
