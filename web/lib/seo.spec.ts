import { formatTitle } from './seo';

describe('formatTitle', () => {
  it('appends the site name', () => {
    expect(formatTitle('Level 27', 'Mystery Doors Guide')).toBe('Level 27 - Mystery Doors Guide');
  });

  it('drops the site name rather than exceed 60 characters', () => {
    const title = 'Level 27: the locked observatory with the brass telescope';
    expect(formatTitle(title, 'Mystery Doors Guide')).toBe(title);
    const exactly60 = `${'x'.repeat(60 - ' - Site'.length)}`;
    expect(formatTitle(exactly60, 'Site')).toHaveLength(60);
  });

  it('uses the site name alone when there is no page title', () => {
    expect(formatTitle(undefined, 'Mystery Doors Guide')).toBe('Mystery Doors Guide');
  });
});
