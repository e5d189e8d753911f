import { correctWords, needsCheck, parseSearchQuery } from './search-query';

describe('parseSearchQuery', () => {
  it('takes the words in lower case, each once, letters and digits only', () => {
    expect(parseSearchQuery('  Brass   KEY, brass key! ', 635)).toEqual({ text: 'Brass KEY, brass key!', tokens: ['brass', 'key'], words: ['brass', 'key'] });
    expect(parseSearchQuery("Captain's café", 635).words).toEqual(['captain', 's', 'café']);
  });

  it('makes control characters spaces and cuts the text to 100 characters', () => {
    expect(parseSearchQuery('lock\u0000key\u0007', 635)).toMatchObject({ text: 'lock key', words: ['lock', 'key'] });
    expect(parseSearchQuery('a'.repeat(150), 635).text).toHaveLength(100);
  });

  it('looks for at most 8 words, none longer than 40 characters', () => {
    expect(parseSearchQuery('one two three four five six seven eight nine ten', 635).words).toHaveLength(8);
    expect(parseSearchQuery(`${'x'.repeat(41)} key`, 635).words).toEqual(['key']);
  });

  it('reads a level number from 1 to the maximum, and drops the word "level" beside it', () => {
    expect(parseSearchQuery('27', 635)).toMatchObject({ words: [], number: 27 });
    expect(parseSearchQuery('Level 27', 635)).toMatchObject({ tokens: ['level', '27'], words: [], number: 27 });
    expect(parseSearchQuery('27 telescope', 635)).toMatchObject({ words: ['telescope'], number: 27 });
    expect(parseSearchQuery('safe 1957', 635)).toEqual({ text: 'safe 1957', tokens: ['safe', '1957'], words: ['safe', '1957'] });
    expect(parseSearchQuery('level 0', 635).number).toBeUndefined();
    expect(parseSearchQuery('level 636', 635).number).toBeUndefined();
    expect(parseSearchQuery('level 636', 635).words).toEqual(['level', '636']);
  });

  it('is empty for nothing but spaces and signs', () => {
    expect(parseSearchQuery(' \t -- ', 635)).toEqual({ text: '--', tokens: [], words: [] });
  });
});

describe('correctWords', () => {
  const checks = new Map([
    ['telscope', { known: false, suggestion: 'telescope' }],
    ['keys', { known: true, suggestion: 'keys' }],
    ['zzzzq', { known: false }],
    ['pharoah', { known: false, suggestion: 'pharaoh' }],
  ]);

  it('keeps known words, replaces unknown ones by the closest word, and leaves out those with none', () => {
    expect(correctWords(['telscope', 'keys', 'zzzzq'], checks)).toEqual({
      words: ['telescope', 'keys'],
      corrections: [{ from: 'telscope', to: 'telescope' }],
      unknown: ['zzzzq'],
    });
  });

  it('takes digits, short words and unchecked words as typed, and each word once', () => {
    expect(correctWords(['4', 'ox', '1957', 'pharoah', 'pharaoh'], checks).words).toEqual(['4', 'ox', '1957', 'pharaoh']);
    expect(['4', 'ox', '1957', 'key'].map(needsCheck)).toEqual([false, false, false, true]);
  });
});
