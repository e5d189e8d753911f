import { DEFAULT_DIRECTION, GUIDE_SORTS, guideInsightsQuery, stuckMost } from './guide-insights';

describe('guideInsightsQuery: /admin/guides read from its URL', () => {
  const query = (search: string) => guideInsightsQuery(new URLSearchParams(search));

  it('is the worst guides first, page 1, with nothing asked', () => {
    expect(query('')).toEqual({ sort: 'worst', dir: 'desc', page: 1 });
  });

  it("takes each sort with its own direction unless one is asked", () => {
    for (const sort of GUIDE_SORTS) expect(query(`sort=${sort}`)).toEqual({ sort, dir: DEFAULT_DIRECTION[sort], page: 1 });
    expect(DEFAULT_DIRECTION.helpful).toBe('asc');
    expect(query('sort=views&dir=asc&page=3')).toEqual({ sort: 'views', dir: 'asc', page: 3 });
  });

  it('reads anything it does not know as the default, never failing', () => {
    expect(query('sort=drop%20table&dir=sideways&page=-1')).toEqual({ sort: 'worst', dir: 'desc', page: 1 });
    expect(query('sort=helpful&page=1e3')).toEqual({ sort: 'helpful', dir: 'asc', page: 1 });
    expect(query(`page=${'9'.repeat(50)}`).page).toBe(1);
    expect(query('sort=%00&dir=asc%00').sort).toBe('worst');
  });
});

describe('stuckMost', () => {
  const ladder = (id: string, rungs: [number, number, number][]) => ({
    ladder: id,
    question: `${id}?`,
    hints: 3,
    rungs: rungs.map(([revealed, solved, stuck]) => ({ revealed, solved, stuck })),
  });

  it('finds the rung with the most "Still stuck" across the ladders, on a tie the earlier ladder, then the lower rung', () => {
    const ladders = [ladder('telescope', [[0, 5, 1], [2, 1, 4]]), ladder('dome-code', [[1, 0, 4], [3, 9, 0]])];
    expect(stuckMost(ladders)).toEqual({ ladder: 'telescope', question: 'telescope?', revealed: 2, players: 4 });
    expect(stuckMost([ladder('dome-code', [[3, 9, 0]])])).toBeNull();
    expect(stuckMost([])).toBeNull();
  });
});
