import { compilePattern } from './match';

describe('compilePattern', () => {
  it('matches static paths, with or without a trailing slash', () => {
    const home = compilePattern('/');
    expect(home.match('/')).toEqual({});
    expect(home.match('/x')).toBeNull();
    expect(compilePattern('/levels').match('/levels/')).toEqual({});
  });

  it('captures one segment per parameter, decoded', () => {
    const level = compilePattern('/levels/:id');
    expect(level.match('/levels/27')).toEqual({ id: '27' });
    expect(level.match('/levels/a%20b')).toEqual({ id: 'a b' });
    expect(level.match('/levels/27/more')).toBeNull();
    expect(level.match('/levels')).toBeNull();
  });

  it('captures the rest of the path with a star parameter', () => {
    expect(compilePattern('/blog/*slug').match('/blog/2026/11/hello')).toEqual({ slug: '2026/11/hello' });
    expect(compilePattern('/blog/*slug').match('/blog')).toBeNull();
    expect(compilePattern('*').match('/anything/at/all')).toEqual({});
  });

  it('keeps a malformed escape as it is instead of throwing', () => {
    expect(compilePattern('/levels/:id').match('/levels/%E0%A4%A')).toEqual({ id: '%E0%A4%A' });
  });
});
