import { SiteContentRepository, SiteContentService } from 'src/modules/content';
import { aPost, InMemorySiteContentRepository } from 'src/modules/content/testing/in-memory-site-content-repository';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { SearchService } from '../../application/search.service';
import { SpellingLexicon } from '../../domain/spelling-lexicon.port';
import { FakeSpellingLexicon } from '../../testing/fake-spelling-lexicon';
import { SearchController } from './search.controller';

describe('SearchController (in process)', () => {
  const api = useControllers(() => ({
    controllers: [SearchController],
    providers: [
      SearchService,
      LevelsService,
      SiteContentService,
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27, { title: 'The Locked Observatory', searchText: 'a brass telescope points at the stars' })]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: SiteContentRepository, useValue: new InMemorySiteContentRepository({ posts: [aPost('telescopes', { title: 'Telescopes in the game', searchText: 'every telescope of the game' })] }) },
      { provide: SpellingLexicon, useValue: new FakeSpellingLexicon(['telescope', 'brass'], { telscope: 'telescope' }) },
    ],
  }));

  const search = (q: string) => api.inject({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}` });

  it('finds guides and posts, grouped by kind, correcting a misspelt word and saying so', async () => {
    const response = await search('Telscope');
    expect(response.statusCode).toBe(200);
    const results = response.json();
    expect(results).toMatchObject({ query: 'Telscope', searched: 'telescope', corrections: [{ from: 'telscope', to: 'telescope' }], match: 'all' });
    // The groups in the order of their best hit (the post has the word in its title): the service's ranking.
    expect(results.groups.map((g: { kind: string; hits: { url: string }[] }) => [g.kind, g.hits.map((h) => h.url)])).toEqual([
      ['posts', ['/blog/telescopes']],
      ['levels', ['/levels/27']],
    ]);
  });

  it('finds a guide by its level number', async () => {
    const results = (await search('level 27')).json();
    expect(results.groups[0]).toMatchObject({ kind: 'levels', hits: [{ url: '/levels/27', number: 27 }] });
  });

  it("refuses a query that is missing, blank, too long, repeated or has control characters, with the field's reason", async () => {
    const cases: [string, string][] = [
      ['/api/v1/search', 'q: must be given once: the words or level number to search for'],
      ['/api/v1/search?q=%20%20', 'q: must not be blank'],
      [`/api/v1/search?q=${'a'.repeat(101)}`, 'q: at most 100 characters'],
      ['/api/v1/search?q=a&q=b', 'q: must be given once: the words or level number to search for'],
      ['/api/v1/search?q=a%00b', 'q: must not contain control characters'],
    ];
    for (const [url, reason] of cases) {
      const refused = await api.inject({ method: 'GET', url });
      expect([url, refused.statusCode, errorOf(refused)]).toEqual([url, 400, { code: 'REQUEST.INVALID', errors: [reason] }]);
    }
  });
});
