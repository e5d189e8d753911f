import { loadConfig } from 'src/config/app-config';
import type { LevelsPages } from 'src/contracts/levels';
import type { SearchPages } from 'src/contracts/search';
import { PageSections } from './page-sections';

const site = { config: loadConfig({ NODE_ENV: 'test' }).public, redirects: new Map([['/old', '/new']]) };
const levels = { page: async (number: number) => ({ kind: 'not-covered', number }) } as unknown as LevelsPages;
const search = { results: async () => ({}) } as unknown as SearchPages;

describe('PageSections: the page data, one section per module', () => {
  it('composes the site rules and every section added', async () => {
    const sections = new PageSections();
    sections.add('levels', levels);
    sections.add('search', search);
    const data = sections.compose(site);
    expect(data.config).toBe(site.config);
    expect(data.redirects.get('/old')).toBe('/new');
    expect(data.levels).toBe(levels);
    expect(await data.levels.page(15)).toEqual({ kind: 'not-covered', number: 15 });
    expect(data.search).toBe(search);
  });

  it('refuses a second section of the same name (two modules claiming one)', () => {
    const sections = new PageSections();
    sections.add('levels', levels);
    expect(() => sections.add('levels', levels)).toThrow('The page data section levels is already added');
  });

  it('fails the start, naming the route and the section, when a route reads a section no loaded module added', () => {
    const sections = new PageSections();
    sections.add('levels', levels);
    expect(() => sections.check({ home: ['levels'], level: ['levels'], 'auth-login': [] })).not.toThrow();
    expect(() => sections.check({ home: ['levels'], search: ['search'], explore: ['content', 'levels'] })).toThrow(
      'Page data sections missing (route search reads search; route explore reads content): the module that adds each one (src/modules/<name>/adapters/pages) is not loaded',
    );
  });
});
