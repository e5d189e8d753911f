import { EXPLORE_LIMITS, type ExploreData } from 'src/contracts/content';
import type { PageData } from 'src/contracts/page-data';
import { fakePageData } from 'test/support/fake-page-data';
import { renderMain } from 'test/support/page-match';

async function render(explore: ExploreData): Promise<string> {
  const base = fakePageData();
  const data: PageData = { ...base, content: { ...base.content, explore: async () => explore } };
  return renderMain('/explore', data);
}

const tags = (count: number) => Array.from({ length: count }, (_, i) => ({ tag: `tag-${i}`, posts: 50 - i }));
const months = (count: number) => Array.from({ length: count }, (_, i) => ({ month: `20${26 - Math.floor(i / 12)}-${String(12 - (i % 12)).padStart(2, '0')}`, posts: 3 }));

describe('the explore page', () => {
  it('lists every category and month of a small blog, with no note and no older-posts link', async () => {
    const main = await render({ tags: tags(3), months: months(2), tagCount: 3, monthCount: 2 });
    expect(main.match(/href="\/category\//g)).toHaveLength(3);
    expect(main.match(/href="\/month\//g)).toHaveLength(2);
    expect(main).not.toContain('most used of');
    expect(main).not.toContain('Older posts');
  });

  it('says how many categories a large blog has beyond those listed, and links to where older posts start', async () => {
    const main = await render({ tags: tags(EXPLORE_LIMITS.tags), months: months(EXPLORE_LIMITS.months), tagCount: 57, monthCount: 60, olderPostsPage: 8 });
    expect(main.match(/href="\/category\//g)).toHaveLength(EXPLORE_LIMITS.tags);
    expect(main.match(/href="\/month\//g)).toHaveLength(EXPLORE_LIMITS.months);
    expect(main).toContain(`The ${EXPLORE_LIMITS.tags} most used of 57 categories`);
    expect(main).toMatch(/<a [^>]*href="\/blog\?page=8"[^>]*>Older posts<\/a>/);
  });
});
