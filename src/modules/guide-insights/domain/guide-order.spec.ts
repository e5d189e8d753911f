import { compareGuides, guideOrder, helpfulRatio, type GuideMeasures } from './guide-order';

const guide = (level: number, measures: Partial<GuideMeasures> = {}): GuideMeasures => ({
  level,
  openReports: 0,
  helpfulRatio: null,
  votes: 0,
  viewsRecent: 0,
  viewsTotal: 0,
  stuck: 0,
  solved: 0,
  ...measures,
});

const sorted = (guides: GuideMeasures[], ...order: Parameters<typeof guideOrder>) => [...guides].sort(compareGuides(guideOrder(...order))).map((g) => g.level);

describe('the order of /admin/guides', () => {
  it('ranks by helpful ratio only from 10 answers on', () => {
    expect(helpfulRatio(3, 9)).toBeNull();
    expect(helpfulRatio(3, 10)).toBe(0.3);
  });

  it('puts the worst first: open reports, then the lowest helpful ratio, then the most stuck, then the most viewed, then the level', () => {
    const guides = [
      guide(1, { helpfulRatio: 0.9, viewsRecent: 500 }),
      guide(2, { openReports: 1, helpfulRatio: 0.95 }),
      guide(3, { helpfulRatio: 0.4 }),
      guide(4, { openReports: 3 }),
      guide(5, { helpfulRatio: null, stuck: 40 }),
      guide(6, { helpfulRatio: 0.9, viewsRecent: 900 }),
      guide(7, { helpfulRatio: null, stuck: 40 }),
      guide(8),
    ];
    // 4 and 2 have reports; 3 the lowest ratio; 6 and 1 the same ratio, 6 more read; unrated (5, 7, 8) after rated ones.
    expect(sorted(guides, 'worst', 'desc')).toEqual([4, 2, 3, 6, 1, 5, 7, 8]);
    // asc is the reverse (the best first), the level still breaking ties upwards and unrated guides still after rated ones.
    expect(sorted(guides, 'worst', 'asc')).toEqual([1, 6, 3, 8, 5, 7, 2, 4]);
  });

  it('sorts by the helpful ratio with unrated guides last in both directions, ties by the worst-first order', () => {
    const guides = [guide(1, { helpfulRatio: 0.5 }), guide(2), guide(3, { helpfulRatio: 0.8 }), guide(4, { helpfulRatio: 0.5, openReports: 2 }), guide(5, { helpfulRatio: 0.5 })];
    expect(sorted(guides, 'helpful', 'asc')).toEqual([4, 1, 5, 3, 2]);
    expect(sorted(guides, 'helpful', 'desc')).toEqual([3, 4, 1, 5, 2]);
  });

  it('sorts by a count in either direction, and by level alone', () => {
    const guides = [guide(3, { viewsRecent: 10 }), guide(1, { viewsRecent: 30 }), guide(2, { viewsRecent: 10, stuck: 5 })];
    expect(sorted(guides, 'views', 'desc')).toEqual([1, 2, 3]);
    expect(sorted(guides, 'views', 'asc')).toEqual([2, 3, 1]);
    expect(sorted(guides, 'level', 'desc')).toEqual([3, 2, 1]);
    expect(guideOrder('level', 'asc')).toEqual([{ measure: 'level', dir: 'asc' }]);
    expect(guideOrder('reports', 'desc').map((t) => t.measure)).toEqual(['openReports', 'helpfulRatio', 'stuck', 'viewsRecent', 'level']);
  });

  it('is a total order: two guides never tie, whatever the sort', () => {
    const twins = [guide(9), guide(8)];
    for (const sort of ['worst', 'helpful', 'votes', 'reports', 'views', 'views_total', 'stuck', 'solved', 'level'] as const) {
      for (const dir of ['asc', 'desc'] as const) expect(compareGuides(guideOrder(sort, dir))(twins[0]!, twins[1]!)).not.toBe(0);
    }
  });
});
