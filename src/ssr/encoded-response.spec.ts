import { chooseEncoding, encode, matchingEtag, variant } from './encoded-response';

describe('chooseEncoding', () => {
  it('prefers brotli once it is ready, gzip until then, identity without a header', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', true)).toBe('br');
    expect(chooseEncoding('gzip, deflate, br, zstd', false)).toBe('gzip');
    expect(chooseEncoding(undefined, true)).toBe('identity');
    expect(chooseEncoding('', true)).toBe('identity');
    expect(chooseEncoding('deflate', true)).toBe('identity');
  });

  it('respects q=0 and the wildcard', () => {
    expect(chooseEncoding('br;q=0, gzip', true)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0', true)).toBe('identity');
    expect(chooseEncoding('gzip;q=0.0, *', true)).toBe('br');
    expect(chooseEncoding('*;q=0, identity', true)).toBe('identity');
    expect(chooseEncoding('*', false)).toBe('gzip');
    expect(chooseEncoding('BR; Q=0.5', true)).toBe('br');
    expect(chooseEncoding(['gzip', 'br'], true)).toBe('br');
  });
});

describe('matchingEtag', () => {
  it('matches any variant of the same bytes, weak or strong, in a list, or *', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: Buffer.from('<p>hi</p>') }, 0);
    expect(matchingEtag(response.etags.gzip, response)).toBe(response.etags.gzip);
    expect(matchingEtag(`"other", W/${response.etags.br}`, response)).toBe(response.etags.br);
    expect(matchingEtag('*', response)).toBe(response.etags.identity);
    expect(matchingEtag('"other"', response)).toBeUndefined();
    expect(matchingEtag(undefined, response)).toBeUndefined();
  });
});

describe('variant', () => {
  it('falls back to identity for brotli that is not there yet', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: Buffer.from('<p>hi</p>') }, 0);
    expect(variant(response, 'br')).toBe(response.identity);
    expect(variant(response, 'gzip')).toBe(response.gzip);
  });
});
