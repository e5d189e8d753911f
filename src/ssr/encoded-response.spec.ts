import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { brotliBest, chooseEncoding, compressForRequest, encode, matchingEtag, variant } from './encoded-response';

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
    expect(chooseEncoding('BR; Q=0.5')).toBe('br');
    expect(chooseEncoding(['gzip', 'br'])).toBe('br');
  });
});

describe('compressForRequest', () => {
  it('compresses a page once in the encoding asked for, brotli smaller than gzip', () => {
    const br = compressForRequest(html, 'gzip, deflate, br');
    const gzip = compressForRequest(html, 'gzip, deflate');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(html);
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body)).toEqual(html);
    expect(br.body.length).toBeLessThan(gzip.body.length);
  });

  it('sends small bodies and clients without a coding we make as they are', () => {
    expect(compressForRequest(Buffer.from('<p>hi</p>'), 'br')).toEqual({ encoding: 'identity', body: Buffer.from('<p>hi</p>') });
    expect(compressForRequest(html, 'deflate, zstd')).toEqual({ encoding: 'identity', body: html });
    expect(compressForRequest(html, undefined).encoding).toBe('identity');
  });
});

describe('a cached response', () => {
  it('is stored with brotli at the page quality, never bigger than a per-request answer, then quality 11 with its own ETag', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: html }, 0);
    expect(response.br).toEqual(compressForRequest(html, 'br').body);
    expect(response.gzip).toEqual(compressForRequest(html, 'gzip').body);
    const first = response.etags.br;
    await brotliBest(response);
    expect(response.brBest).toBe(true);
    expect(brotliDecompressSync(response.br)).toEqual(html);
    expect(response.br.length).toBeLessThanOrEqual(compressForRequest(html, 'br').body.length);
    expect(response.etags.br).not.toBe(first);
    // The ETag a client got before the upgrade still names the same content.
    expect(matchingEtag(first, response)).toBe(first);
    expect(variant(response, 'br')).toBe(response.br);
  });

  it('keeps the stored brotli when quality 11 is no smaller (a tiny body)', async () => {
    const tiny = await encode({ status: 200, contentType: 'text/html', body: Buffer.from(`<p>${'é guide '.repeat(200)}</p>`) }, 0);
    const stored = tiny.br;
    const etag = tiny.etags.br;
    await brotliBest(tiny);
    expect(tiny.brBest).toBe(true);
    expect(tiny.br.length).toBeLessThanOrEqual(stored.length);
    if (tiny.br === stored) expect(tiny.etags.br).toBe(etag);
  });
});

describe('matchingEtag', () => {
  it('matches any variant of the same bytes, weak or strong, in a list, or *', async () => {
    const response = await encode({ status: 200, contentType: 'text/html', body: Buffer.from('<p>hi</p>') }, 0);
    expect(matchingEtag(response.etags.gzip, response)).toBe(response.etags.gzip);
    expect(matchingEtag(`"other", W/${response.etags.br}`, response)).toBe(response.etags.br);
    expect(matchingEtag('*', response)).toBe(response.etags.identity);
    expect(matchingEtag('"other"', response)).toBeUndefined();
    expect(matchingEtag(`"${response.etags.identity.slice(1, -1)}-br7"`, response)).toBeUndefined();
    expect(matchingEtag(undefined, response)).toBeUndefined();
  });
});
