import { HashingGate } from './hashing-gate';

class Busy extends Error {}

/** A unit of work the test finishes by hand. */
function deferred() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('HashingGate', () => {
  it('runs at most `concurrency` at once, queues up to `queue`, and refuses the rest at once', async () => {
    const gate = new HashingGate({ concurrency: 2, queue: 1 }, () => new Busy());
    const works = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = works.map((work, i) => gate.run(async () => (started.push(i), work.done)));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);

    await expect(gate.run(async () => 'never')).rejects.toBeInstanceOf(Busy);

    works[0]!.finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    works[1]!.finish();
    works[2]!.finish();
    await Promise.all(runs);
    // Every slot is free again: two start at once, a third waits.
    const again = [deferred(), deferred(), deferred()];
    const more = again.map((work, i) => gate.run(async () => (started.push(3 + i), work.done)));
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    again.forEach((work) => work.finish());
    await Promise.all(more);
  });

  it('frees the slot of work that fails', async () => {
    const gate = new HashingGate({ concurrency: 1, queue: 0 }, () => new Busy());
    await expect(gate.run(async () => Promise.reject(new Error('argon2 failed')))).rejects.toThrow('argon2 failed');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
