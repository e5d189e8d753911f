import type { RankedHit } from 'src/contracts/search';
import { orderGroups, type RankedGroup } from './ranking';

const hit = (title: string, tier: number, rank: number): RankedHit => ({ title, tier, rank, snippet: '' });
const group = (kind: RankedGroup['kind'], ...hits: RankedHit[]): RankedGroup => ({ kind, total: hits.length, hits });
const order = (groups: RankedGroup[]) => orderGroups(groups).map((g) => [g.kind, ...g.hits.map((h) => h.title)]);

describe('orderGroups', () => {
  it('sorts each group by tier, then rank, and leaves out groups without hits', () => {
    expect(order([group('levels', hit('mention', 0, 0.9), hit('title', 2, 0.1), hit('phrase', 1, 0.2), hit('phrase, better', 1, 0.5)), group('posts')])).toEqual([
      ['levels', 'title', 'phrase, better', 'phrase', 'mention'],
    ]);
  });

  it('puts first the group whose best hit has the highest tier: a title or a number beats a passing mention of any kind', () => {
    const levels = group('levels', hit('telescope in the steps', 1, 0.9));
    const posts = group('posts', hit('Why our guides show hints first', 2, 0.1));
    expect(order([levels, posts]).map(([kind]) => kind)).toEqual(['posts', 'levels']);
    const byNumber = group('levels', hit('Level 27', 3, 0));
    expect(order([posts, byNumber]).map(([kind]) => kind)).toEqual(['levels', 'posts']);
  });

  it('on equal tiers puts guides before posts before pages, whatever the ranks (they are not comparable across tables)', () => {
    const groups = [group('pages', hit('page', 1, 0.9)), group('posts', hit('post', 1, 0.8)), group('levels', hit('guide', 1, 0.1))];
    expect(order(groups).map(([kind]) => kind)).toEqual(['levels', 'posts', 'pages']);
  });
});
