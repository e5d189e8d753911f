import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { bestBrotli, chooseEncoding, compressForRequest, encode, matchingEtag, upgradeBrotli, variant } from './encoded-response';

const WORDS = 'tap the brass key globe oil can hinge telescope star chart dial lock lever door kite lantern crown count stars swipe across sky'.split(' ');
/** A page-sized body with the repetition real HTML has (class lists, markup) and varied words. */
const html = Buffer.from(
  `<!DOCTYPE html><main>${Array.from({ length: 300 }, (_, i) => `<p class="mt-2 text-gray-700 dark:text-gray-300">Step ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13) % WORDS.length]}.</p>`).join('')}</main>`,
);

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, identity without a header', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('')).toBe('identity');
    expect(chooseEncoding('deflate')).toBe('identity');
  });

  it('respects q=0 and the wildcard', () => {
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(chooseEncoding('gzip;q=0.0, *')).toBe('br');
    expect(chooseEncoding('*;q=0, identity')).toBe('identity');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('x-gzip')).toBe('gzip');
    expect(chooseEncoding('BR; Q=0.5')).toBe('br');
    expect(chooseEncoding(['gzip', 'br'])).toBe('br');
  });
});

describe('compressForRequest', () => {
  it('answers a browser brotli 5 (fewer bytes than gzip), a client that takes gzip only gzip', () => {
    const browser = compressForRequest(html, 'gzip, deflate, br, zstd');
    expect(browser.encoding).toBe('br');
    expect(brotliDecompressSync(browser.body)).toEqual(html);
    const gzipOnly = compressForRequest(html, 'gzip, deflate');
    expect(gzipOnly.encoding).toBe('gzip');
    expect(gunzipSync(gzipOnly.body)).toEqual(html);
    expect(browser.body.length).toBeLessThan(gzipOnly.body.length);
    expect(gzipOnly.body.length).toBeLessThan(html.length / 4);
  });

  it('sends small bodies, and to clients without a coding we make, as they are', () => {
    expect(compressForRequest(Buffer.from('<p>hi</p>'), 'gzip, br')).toEqual({ encoding: 'identity', body: Buffer.from('<p>hi</p>') });
    expect(compressForRequest(html, 'deflate, zstd')).toEqual({ encoding: 'identity', body: html });
    expect(compressForRequest(html, 'gzip;q=0, br;q=0')).toEqual({ encoding: 'identity', body: html });
    expect(compressForRequest(html, undefined).encoding).toBe('identity');
  });
});

describe('a cached response', () => {
  it('is never bigger than the same page answered per request: the same brotli 5 and gzip, then brotli 11 under its own ETag', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: html }, 0);
    expect(response.br).toEqual(compressForRequest(html, 'gzip, deflate, br').body);
    expect(response.gzip).toEqual(compressForRequest(html, 'gzip').body);
    expect(variant(response, 'br')).toBe(response.br);
    const firstTag = response.etags.br;
    const best = await bestBrotli(html);
    expect(upgradeBrotli(response, best)).toBe(best.length - compressForRequest(html, 'br').body.length);
    expect(brotliDecompressSync(response.br)).toEqual(html);
    expect(response.br.length).toBeLessThan(compressForRequest(html, 'br').body.length);
    expect(variant(response, 'br')).toBe(best);
    expect(response.bestBrotli).toBe(true);
    expect(response.etags.br).not.toBe(firstTag);
    // A browser holding brotli 5's tag still gets its 304.
    expect(matchingEtag(firstTag, response)).toBe(firstTag);
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
