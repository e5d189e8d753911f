import { fullTextSql, tsQueries } from './full-text';

describe('tsQueries', () => {
  it('quotes each word: every word, any word, the words side by side', () => {
    expect(tsQueries({ words: ['brass', 'key'], match: 'all' })).toEqual({
      match: "'brass' & 'key'",
      every: "'brass' & 'key'",
      phrase: "'brass' <-> 'key'",
      any: "'brass' | 'key'",
    });
    expect(tsQueries({ words: ['brass', 'key'], match: 'any' }).match).toBe("'brass' | 'key'");
  });

  it('drops anything that is not letters and digits, so no word can end its quotes or add an operator', () => {
    expect(tsQueries({ words: ["key' | 'x", 'café', '!', '4'], match: 'all' }).match).toBe("'café' & '4'");
    expect(tsQueries({ words: [], match: 'all' })).toEqual({ match: '', every: '', phrase: '', any: '' });
  });
});

describe('fullTextSql', () => {
  it('binds the four queries as parameters, never in the SQL text', () => {
    const sql = fullTextSql({ words: ['telescope'], match: 'all' });
    expect(sql.params).toEqual(["'telescope'", "'telescope'", "'telescope'", "'telescope'"]);
    expect(sql.with).not.toContain('telescope');
    expect(sql.with.match(/\?/g)).toHaveLength(4);
  });
});
