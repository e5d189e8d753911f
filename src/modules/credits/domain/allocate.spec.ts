import { allocate } from './allocate';

describe('allocate', () => {
  const lots = [
    { id: 'soon', remaining: 2 },
    { id: 'later', remaining: 5 },
  ];

  it('takes from the lot that expires soonest first, then the next', () => {
    expect(allocate(lots, 1)).toEqual([{ lotId: 'soon', amount: 1 }]);
    expect(allocate(lots, 4)).toEqual([
      { lotId: 'soon', amount: 2 },
      { lotId: 'later', amount: 2 },
    ]);
    expect(allocate(lots, 7)).toHaveLength(2);
  });

  it('skips empty lots and refuses a spend larger than what is left', () => {
    expect(allocate([{ id: 'empty', remaining: 0 }, ...lots], 2)).toEqual([{ lotId: 'soon', amount: 2 }]);
    expect(allocate(lots, 8)).toBeNull();
    expect(allocate([], 1)).toBeNull();
  });

  it('refuses amounts that are not positive whole numbers', () => {
    for (const amount of [0, -1, 1.5, Number.NaN]) expect(() => allocate(lots, amount)).toThrow(RangeError);
  });
});
