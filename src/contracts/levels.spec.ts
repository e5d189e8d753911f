import { formatGuideRanges, HELPFUL_SHARE_MIN_VOTES, helpfulShare, nextGuideAfter } from './levels';

describe('helpfulShare: what a guide page says about "Was this helpful?"', () => {
  it('says nothing below 10 answers, and from 10 on gives the share of yes in whole percent', () => {
    expect(HELPFUL_SHARE_MIN_VOTES).toBe(10);
    expect(helpfulShare(0, 0)).toBeUndefined();
    expect(helpfulShare(9, 9)).toBeUndefined();
    expect(helpfulShare(10, 10)).toEqual({ percent: 100, votes: 10 });
    expect(helpfulShare(20, 23)).toEqual({ percent: 87, votes: 23 });
    expect(helpfulShare(1, 10)).toEqual({ percent: 10, votes: 10 });
  });

  it('rounds to the nearest percent, but says 100% or 0% only when every answer agrees', () => {
    expect(helpfulShare(2, 11)?.percent).toBe(18); // 18.2
    expect(helpfulShare(1, 8 * 2)?.percent).toBe(6); // 6.25
    expect(helpfulShare(299, 300)?.percent).toBe(99); // 99.7, not 100
    expect(helpfulShare(1, 300)?.percent).toBe(1); // 0.3, not 0
    expect(helpfulShare(0, 300)?.percent).toBe(0);
    expect(helpfulShare(300, 300)?.percent).toBe(100);
  });
});

describe('guide ranges: the levels with a guide, as runs', () => {
  it('writes runs of consecutive levels as "from-to" and single levels alone', () => {
    expect(formatGuideRanges([[1, 5], [7, 7], [9, 9], [12, 14]])).toBe('1-5 7 9 12-14');
    expect(formatGuideRanges([])).toBe('');
  });

  it('finds the next level with a guide after a level, inside a run or at the start of the next', () => {
    const ranges = '1-5 7 9 12-14';
    expect(nextGuideAfter(ranges, 0)).toBe(1);
    expect(nextGuideAfter(ranges, 3)).toBe(4);
    expect(nextGuideAfter(ranges, 5)).toBe(7);
    expect(nextGuideAfter(ranges, 10)).toBe(12);
    expect(nextGuideAfter(ranges, 14)).toBeUndefined();
    expect(nextGuideAfter('', 1)).toBeUndefined();
  });
});
