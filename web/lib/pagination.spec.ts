import { pageWindow } from './pagination';

describe('pageWindow', () => {
  it('shows every page of a short list', () => {
    expect(pageWindow(1, 1)).toEqual([]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows the first, the last and two either side of the current page of a long one', () => {
    expect(pageWindow(1, 208)).toEqual([1, 2, 3, 'gap', 208]);
    expect(pageWindow(100, 208)).toEqual([1, 'gap', 98, 99, 100, 101, 102, 'gap', 208]);
    expect(pageWindow(208, 208)).toEqual([1, 'gap', 206, 207, 208]);
    expect(pageWindow(5, 208)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 208]);
  });

  it('keeps the current page within the list', () => {
    expect(pageWindow(999, 10)).toEqual([1, 'gap', 8, 9, 10]);
    expect(pageWindow(-3, 10)).toEqual([1, 2, 3, 'gap', 10]);
  });

  it('never shows more than 2 * radius + 5 links, whatever the length', () => {
    for (let count = 1; count <= 300; count += 7) {
      for (const current of [1, 2, 3, Math.floor(count / 2), count - 1, count]) expect(pageWindow(current, count).length).toBeLessThanOrEqual(9);
    }
  });
});
