import { levelListQuerySchema } from './levels.schema';
import { searchText } from './search-text';

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
