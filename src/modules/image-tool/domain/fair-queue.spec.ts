import { queuePriority } from './fair-queue';

describe('queuePriority', () => {
  it('puts a user with nothing waiting first, and each further job of a user one step back', () => {
    expect(queuePriority({ unfinished: 0, highestPriority: null })).toBe(1);
    expect(queuePriority({ unfinished: 1, highestPriority: 1 })).toBe(2);
    expect(queuePriority({ unfinished: 9, highestPriority: 9 })).toBe(10);
  });

  it("keeps a user's own order when earlier jobs finished: never below the last unfinished job's priority", () => {
    // Jobs at priorities 3 and 4 still wait after the first two finished: the next one shares 4 (after it, as it came later), not 3.
    expect(queuePriority({ unfinished: 2, highestPriority: 4 })).toBe(4);
  });
});
