import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { brotli, chooseEncoding, compressForRequest, encode, matchingEtag, variant } from './encoded-response';

const WORDS = 'tap the brass key globe oil can hinge telescope star chart dial lock lever door kite lantern crown count stars swipe across sky'.split(' ');
/** A page-sized body with the repetition real HTML has (class lists, markup) and varied words. */
const html = Buffer.from(
  `<!DOCTYPE html><main>${Array.from({ length: 300 }, (_, i) => `<p class="mt-2 text-gray-700 dark:text-gray-300">Step ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13) % WORDS.length]}.</p>`).join('')}</main>`,
);

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

describe('compressForRequest', () => {
  it('answers a browser gzip (the fewest bytes for its CPU), a client that takes brotli only brotli', () => {
    const browser = compressForRequest(html, 'gzip, deflate, br, zstd');
    expect(browser.encoding).toBe('gzip');
    expect(gunzipSync(browser.body)).toEqual(html);
    const brotliOnly = compressForRequest(html, 'br, gzip;q=0');
    expect(brotliOnly.encoding).toBe('br');
    expect(brotliDecompressSync(brotliOnly.body)).toEqual(html);
    expect(brotliOnly.body.length).toBeLessThan(html.length / 4);
  });

  it('sends small bodies, and to clients without a coding we make, as they are', () => {
    expect(compressForRequest(Buffer.from('<p>hi</p>'), 'gzip, br')).toEqual({ encoding: 'identity', body: Buffer.from('<p>hi</p>') });
    expect(compressForRequest(html, 'deflate, zstd')).toEqual({ encoding: 'identity', body: html });
    expect(compressForRequest(html, 'gzip;q=0, br;q=0')).toEqual({ encoding: 'identity', body: html });
    expect(compressForRequest(html, undefined).encoding).toBe('identity');
  });
});

describe('a cached response', () => {
  it('is never bigger than the same page answered per request: the same gzip, then brotli 11', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: html }, 0);
    const perRequest = compressForRequest(html, 'gzip, deflate, br');
    expect(response.gzip).toEqual(perRequest.body);
    expect(variant(response, 'br')).toBe(response.identity);
    response.br = await brotli(html);
    expect(brotliDecompressSync(response.br)).toEqual(html);
    expect(response.br.length).toBeLessThan(perRequest.body.length);
    expect(variant(response, 'br')).toBe(response.br);
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
