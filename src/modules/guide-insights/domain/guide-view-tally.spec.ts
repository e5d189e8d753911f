import { GuideViewTally, utcDay } from './guide-view-tally';

const at = (iso: string) => Date.parse(iso);

describe('GuideViewTally', () => {
  it('counts views per level per UTC day, and drains them once', () => {
    const tally = new GuideViewTally();
    tally.add(27, at('2026-11-26T23:59:59.999Z'));
    tally.add(27, at('2026-11-26T00:00:00Z'));
    tally.add(27, at('2026-11-27T00:00:00Z'));
    tally.add(3, at('2026-11-26T12:00:00Z'));
    expect(tally.drain()).toEqual([
      { level: 27, day: '2026-11-26', views: 2 },
      { level: 3, day: '2026-11-26', views: 1 },
      { level: 27, day: '2026-11-27', views: 1 },
    ]);
    expect(tally.drain()).toEqual([]);
  });

  it('adds counts given back (a failed write) to those counted meanwhile', () => {
    const tally = new GuideViewTally();
    tally.add(27, at('2026-11-26T10:00:00Z'));
    const failed = tally.drain();
    tally.add(27, at('2026-11-26T11:00:00Z'));
    tally.add(5, at('2026-11-27T01:00:00Z'));
    tally.restore(failed);
    expect(tally.drain()).toEqual([
      { level: 27, day: '2026-11-26', views: 2 },
      { level: 5, day: '2026-11-27', views: 1 },
    ]);
  });

  it('names days in UTC', () => {
    expect(utcDay(at('2026-11-26T23:30:00-05:00'))).toBe('2026-11-27');
    expect(utcDay(0)).toBe('1970-01-01');
  });
});
