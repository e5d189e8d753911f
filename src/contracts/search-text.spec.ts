import { levelListQuerySchema } from './levels.schema';
import { filterText, searchText } from './search-text';

describe('searchText', () => {
  it.each([
    ['\u0000', undefined],
    ['lock\u0000key', 'lock key'],
    ['-'.repeat(40), '-'],
    ['-('.repeat(40), '-('],
    [`door${' -'.repeat(40)}`, 'door -'],
    ['star -moon', 'star -moon'],
    ['four-digit "red door" or key', 'four-digit "red door" or key'],
    ['   ', undefined],
  ])('makes %j a term websearch_to_tsquery takes: %j', (raw, expected) => {
    expect(searchText(raw)).toBe(expected);
  });

  it('is how the level list query reads its text', () => {
    expect(levelListQuerySchema.parse({ query: `\u0000${'-'.repeat(33)}` }).query).toBe('-');
  });
});

describe('filterText', () => {
  it.each([
    ['a\u0000b', 20, 'a b'],
    ['  ORD-12  ', 20, 'ORD-12'],
    ['\u0000\u001f ', 20, undefined],
    [null, 20, undefined],
    ['x'.repeat(30), 20, 'x'.repeat(20)],
  ])('makes %j (at most %i characters) a filter PostgreSQL takes: %j', (raw, max, expected) => {
    expect(filterText(raw, max)).toBe(expected);
  });
});
