import { safeReturnPath } from './oauth-state';

describe('safeReturnPath', () => {
  it.each(['/', '/levels/27?x=1', '/levels/27#hint-2', '/levels?q=a%2F%2Fb', '/levels/27/'])('keeps the site path %j', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/levels'],
    ['an absolute URL', 'https://evil.example'],
    ['an absolute URL on this path', 'https://evil.example/levels/27'],
    ['a backslash that browsers read as a slash', '/\\evil'],
    ['a backslash later in the path', '/levels\\..\\\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'levels/27'],
    ['an empty string', ''],
    ['a blank string', ' '],
    ['a leading space', ' /levels'],
  ])('refuses %s', (_label, value) => {
    expect(safeReturnPath(value)).toBe('/');
  });

  it.each([undefined, null, 42, true, ['/levels/27'], { toString: () => '/levels/27' }, new String('/levels/27')])(
    'refuses the non-string %p',
    (value) => {
      expect(safeReturnPath(value)).toBe('/');
    },
  );

  it.each([
    ['a tab, which browsers strip (making //evil.example)', '/\t/evil.example'],
    ['a line feed', '/levels\n/27'],
    ['a carriage return', '/\r/evil.example'],
    ['a NUL', '/levels\u0000'],
    ['DEL', '/levels\u007f'],
    ['an escape', '/\u001b[31m'],
  ])('refuses a control character: %s', (_label, value) => {
    expect(safeReturnPath(value)).toBe('/');
  });

  it('refuses over-long paths and keeps one at the limit', () => {
    const atLimit = `/${'a'.repeat(2047)}`;
    expect(safeReturnPath(atLimit)).toBe(atLimit);
    expect(safeReturnPath(`${atLimit}a`)).toBe('/');
    expect(safeReturnPath(`/${'a'.repeat(100_000)}`)).toBe('/');
  });

  it.each(['/auth/login', '/auth', '/auth/confirm#token=abc', '/auth/google_oauth2/callback?code=x'])(
    'sends %j home instead of back to an /auth page',
    (path) => {
      expect(safeReturnPath(path)).toBe('/');
    },
  );
});

describe('safeReturnPath and the Location header', () => {
  it.each([
    ['/\u3002evil.com', '/%E3%80%82evil.com'],
    ['/levels/27?q=\u3002', '/levels/27?q=%E3%80%82'],
    ['/niveaux/été', '/niveaux/%C3%A9t%C3%A9'],
  ])('percent-encodes %j, which a redirect could not carry', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
    expect(/^[\x21-\x7e]*$/.test(safeReturnPath(value))).toBe(true);
  });

  it.each(['/.//evil.com', '/a/..//evil.com', '/%2e//evil.com'])('refuses %j, which resolves to another host', (value) => {
    expect(safeReturnPath(value)).toBe('/');
  });
});
