import { loadConfig } from 'src/config/app-config';
import { MARK_END, MARK_START, type RankedHits, type SearchTerms } from 'src/contracts/search';
import type { SiteContentService } from 'src/modules/content';
import type { LevelsService } from 'src/modules/levels';
import { FakeSpellingLexicon } from '../testing/fake-spelling-lexicon';
import { SearchService } from './search.service';

const none = { total: 0, hits: [] };
const mark = (word: string) => `${MARK_START}${word}${MARK_END}`;

function service(levels: (terms: SearchTerms) => RankedHits<{ number: number; difficulty: 'easy' }>, posts = (_terms: SearchTerms) => none) {
  // "keys" is known by its stem, "telscope" is close to "telescope".
  const lexicon = new FakeSpellingLexicon(['brass', 'key', 'keys', 'telescope', 'piano'], { telscope: 'telescope' });
  const asked: SearchTerms[] = [];
  const levelsService = { search: async (terms: SearchTerms) => (asked.push(terms), levels(terms)) } as unknown as LevelsService;
  const content = { search: async (terms: SearchTerms) => ({ posts: posts(terms), pages: none }) } as unknown as SiteContentService;
  return { search: new SearchService(levelsService, content, lexicon, loadConfig({ NODE_ENV: 'test' })), lexicon, asked };
}

describe('SearchService', () => {
  it('corrects a word the site does not have, searches the correction and says so', async () => {
    const { search, asked } = service((terms) =>
      terms.words.includes('telescope') ? { total: 1, hits: [{ number: 27, difficulty: 'easy', tier: 1, rank: 0.5, title: 'The Locked Observatory', snippet: `a brass ${mark('telescope')}` }] } : none,
    );
    const results = await search.search('Telscope');
    expect(asked).toEqual([{ words: ['telescope'], match: 'all' }]);
    expect(results).toEqual({
      query: 'Telscope',
      searched: 'telescope',
      corrections: [{ from: 'telscope', to: 'telescope' }],
      unknown: [],
      match: 'all',
      groups: [
        {
          kind: 'levels',
          total: 1,
          hits: [{ url: '/levels/27', number: 27, difficulty: 'easy', title: [{ text: 'The Locked Observatory' }], snippet: [{ text: 'a brass ' }, { text: 'telescope', mark: true }] }],
        },
      ],
    });
  });

  it('asks for any of the words when nothing has them all', async () => {
    const { search, asked } = service((terms) =>
      terms.match === 'any' ? { total: 1, hits: [{ number: 18, difficulty: 'easy', tier: 0, rank: 0.1, title: 'The Music Parlour', snippet: mark('piano') }] } : none,
    );
    const results = await search.search('telescope piano');
    expect(asked.map((t) => t.match)).toEqual(['all', 'any']);
    expect(results.match).toBe('any');
    expect(results.groups[0]!.hits[0]!.url).toBe('/levels/18');
  });

  it('leaves out a word nothing is close to, and finds a level by its number without asking the lexicon about it', async () => {
    const { search, lexicon, asked } = service(() => none);
    const results = await search.search('level 27 zzzzq');
    expect(lexicon.asked).toEqual([['zzzzq']]);
    expect(asked).toEqual([{ words: [], match: 'all', number: 27 }]);
    expect(results).toMatchObject({ searched: 'level 27', unknown: ['zzzzq'], groups: [] });
  });

  it('asks no module when no word is left and no number named', async () => {
    const { search, asked } = service(() => none);
    expect(await search.search('zzzzq --')).toMatchObject({ searched: '', unknown: ['zzzzq'], groups: [] });
    expect(asked).toEqual([]);
  });
});
