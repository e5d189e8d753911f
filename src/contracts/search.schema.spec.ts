import { searchQuerySchema } from './search.schema';

const error = (query: unknown) => {
  const parsed = searchQuerySchema.safeParse(query);
  return parsed.success ? undefined : parsed.error.issues[0]!.message;
};

describe('searchQuerySchema (GET /api/v1/search)', () => {
  it('takes words or a number, trimmed, with runs of spaces made one', () => {
    expect(searchQuerySchema.parse({ q: '  brass   key ' })).toEqual({ q: 'brass key' });
    expect(searchQuerySchema.parse({ q: '27' })).toEqual({ q: '27' });
  });

  it('refuses a missing, blank, repeated or too long q, control characters and other parameters', () => {
    expect(error({})).toMatch(/must be given once/);
    expect(error({ q: ['a', 'b'] })).toMatch(/must be given once/);
    expect(error({ q: '   ' })).toBe('must not be blank');
    expect(error({ q: 'x'.repeat(101) })).toBe('at most 100 characters');
    expect(error({ q: 'lock\u0000key' })).toBe('must not contain control characters');
    expect(error({ q: 'key', page: '2' })).toBeDefined();
  });
});
