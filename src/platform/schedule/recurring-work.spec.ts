import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RequestContext, type MikroORM } from '@mikro-orm/core';
import { RecurringWork } from './recurring-work';

/** An EntityManager stand-in: each context gets a fork, which the task can see. */
const fakeOrm = () => {
  let forks = 0;
  const em = { name: 'default', fork: () => ({ name: 'default', fork: em.fork, id: ++forks }) };
  return { em } as unknown as MikroORM;
};

const currentFork = () => (RequestContext.getEntityManager() as unknown as { id: number } | undefined)?.id;

describe('RecurringWork', () => {
  const warnings: string[] = [];
  let schedule: SchedulerRegistry;

  beforeEach(() => {
    jest.useFakeTimers();
    warnings.length = 0;
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(String(args[1] ?? args[0])));
    schedule = new SchedulerRegistry();
  });

  afterEach(() => {
    for (const name of schedule.getTimeouts()) schedule.deleteTimeout(name);
    for (const name of schedule.getIntervals()) schedule.deleteInterval(name);
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('runs a task after its first delay, then every period, each run in a context of its own', async () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    const contexts: (number | undefined)[] = [];
    work.register({ name: 'test.tick', firstDelayMs: 1_000, everyMs: 5_000, run: async () => void contexts.push(currentFork()) });
    work.onApplicationBootstrap();
    expect(schedule.getTimeouts()).toEqual(['test.tick.first']);
    expect(schedule.getIntervals()).toEqual(['test.tick']);

    await jest.advanceTimersByTimeAsync(999);
    expect(contexts).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(contexts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(4_000);
    expect(contexts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(contexts).toHaveLength(4);
    // Never the global EntityManager: a fresh fork per run.
    expect(contexts.every((id) => typeof id === 'number')).toBe(true);
    expect(new Set(contexts).size).toBe(4);
  });

  it('logs a failure with the task name, and runs again on the next tick', async () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    let runs = 0;
    work.register({
      name: 'test.flaky',
      firstDelayMs: 0,
      everyMs: 1_000,
      run: async () => {
        if (++runs === 1) throw new Error('database away');
      },
    });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    expect(warnings).toEqual(['Recurring task test.flaky failed']);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(warnings).toHaveLength(1);
  });

  it('logs a database outage once, not once per task per tick, and once when it is over', async () => {
    const errors: string[] = [];
    const logs: string[] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((...args: unknown[]) => void errors.push(String(args[0])));
    jest.spyOn(Logger.prototype, 'log').mockImplementation((...args: unknown[]) => void logs.push(String(args[0])));
    const work = new RecurringWork(fakeOrm(), schedule);
    let down = true;
    for (const name of ['test.a', 'test.b', 'test.c']) {
      work.register({
        name,
        firstDelayMs: 0,
        everyMs: 1_000,
        run: async () => {
          if (down) throw new Error('Connection terminated unexpectedly');
        },
      });
    }
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(30_000);
    // 3 tasks, 31 ticks each: one line, and no per-task warning.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^PostgreSQL \(recurring work\) is unavailable: the database is unreachable/);
    expect(warnings).toEqual([]);
    down = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(logs).toEqual(['PostgreSQL (recurring work) is back after 31 s']);
  });

  it('never runs a task twice at once: a tick during a run waits for it', async () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    let started = 0;
    let finish = () => {};
    work.register({
      name: 'test.slow',
      firstDelayMs: 100,
      everyMs: 1_000,
      run: () => {
        started++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3_500);
    expect(started).toBe(1);
    const asked = work.run('test.slow');
    finish();
    await asked;
    expect(started).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(2);
  });

  it('runs the distinct first run once, after a run already going', async () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    const runs: string[] = [];
    let finish = () => {};
    work.register({
      name: 'test.resume',
      firstDelayMs: 2_500,
      everyMs: 1_000,
      run: () => {
        runs.push('run');
        return new Promise<void>((resolve) => (finish = resolve));
      },
      firstRun: async () => void runs.push('first'),
    });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2_500);
    expect(runs).toEqual(['run']);
    finish();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(['run', 'first']);
  });

  it('schedules nothing without ScheduleModule, and still runs a task when asked', async () => {
    const work = new RecurringWork(fakeOrm());
    let runs = 0;
    work.register({ name: 'test.asked', firstDelayMs: 0, everyMs: 1_000, run: async () => void runs++ });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(0);
    await work.run('test.asked');
    expect(runs).toBe(1);
  });

  it('schedules an everyProcess task without ScheduleModule too, and stops it at shutdown', async () => {
    const work = new RecurringWork(fakeOrm());
    let runs = 0;
    work.register({ name: 'test.own', firstDelayMs: 100, everyMs: 1_000, everyProcess: true, run: async () => void runs++ });
    work.register({ name: 'test.jobs-only', firstDelayMs: 0, everyMs: 1_000, run: async () => void (runs += 100) });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2_100);
    expect(runs).toBe(3);
    await work.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });

  it('runs an atShutdown task once more as the process stops, after the run already going', async () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    const runs: string[] = [];
    let finish = () => {};
    let calls = 0;
    work.register({
      name: 'test.flush',
      firstDelayMs: 0,
      everyMs: 60_000,
      atShutdown: true,
      run: () => {
        const n = ++calls;
        runs.push(`start ${n}`);
        return n === 1 ? new Promise<void>((resolve) => (finish = () => (runs.push('end 1'), resolve()))) : Promise.resolve(void runs.push(`end ${n}`));
      },
    });
    work.register({ name: 'test.other', firstDelayMs: 60_000, everyMs: 60_000, run: async () => void runs.push('other') });
    work.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
    const stopping = work.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(['start 1']);
    finish();
    await stopping;
    expect(runs).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('refuses a second task of the same name, a period of zero, and an unknown name', () => {
    const work = new RecurringWork(fakeOrm(), schedule);
    const task = { name: 'test.once', firstDelayMs: 0, everyMs: 1_000, run: async () => undefined };
    work.register(task);
    expect(() => work.register(task)).toThrow('already registered');
    expect(() => work.register({ ...task, name: 'test.zero', everyMs: 0 })).toThrow('period above 0');
    expect(() => work.run('test.missing')).toThrow('No recurring task test.missing');
  });
});
