import { LEVEL_SEARCH_MESSAGES, parseLevelSearch } from './level-number';

const MAX = 635;

describe('parseLevelSearch', () => {
  it.each([
    ['', LEVEL_SEARCH_MESSAGES.empty],
    ['   ', LEVEL_SEARCH_MESSAGES.empty],
  ])('asks for a number when the box is empty (%j)', (raw, message) => {
    expect(parseLevelSearch(raw, MAX)).toEqual({ ok: false, message });
  });

  it.each(['12a', ' 12', '12 ', '-1', '1e3', '1.5', '+5', '0', '000', '636', '9'.repeat(5000)])(
    'rejects %j as an invalid level number',
    (raw) => {
      expect(parseLevelSearch(raw, MAX)).toEqual({ ok: false, message: 'Invalid level number' });
    },
  );

  it.each([
    ['1', 1],
    ['27', 27],
    ['231', 231],
    ['232', 232],
    ['635', 635],
    ['007', 7],
  ])('accepts %j as level %d', (raw, level) => {
    expect(parseLevelSearch(raw, MAX)).toEqual({ ok: true, level });
  });

  it('follows the configured maximum', () => {
    expect(parseLevelSearch('700', 1000)).toEqual({ ok: true, level: 700 });
    expect(parseLevelSearch('1001', 1000).ok).toBe(false);
  });
});
