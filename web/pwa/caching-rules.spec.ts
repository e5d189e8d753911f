import { guideOf, guidesCacheName, isNeverCached, isPageOfBuild, mayStore, pictureOf, requestPolicy } from './caching-rules';

const ORIGIN = 'https://guides.example';
const get = (path: string, init: { mode?: RequestMode; headers?: Record<string, string>; method?: string } = {}) => ({
  method: init.method ?? 'GET',
  url: path.startsWith('http') ? path : `${ORIGIN}${path}`,
  mode: init.mode ?? 'cors',
  headers: new Headers(init.headers),
});
const page = (path: string, headers?: Record<string, string>) => get(path, { mode: 'navigate', headers });
const answer = (init: { status?: number; type?: ResponseType; redirected?: boolean; headers?: Record<string, string> } = {}) => ({
  status: init.status ?? 200,
  type: init.type ?? 'basic',
  redirected: init.redirected ?? false,
  headers: new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...init.headers }),
});

describe('what the service worker keeps for offline reading', () => {
  it('keeps a guide, its page and its payload, in any language', () => {
    expect(requestPolicy(page('/levels/27'), ORIGIN)).toBe('guide');
    expect(requestPolicy(get('/levels/27/_payload.json'), ORIGIN)).toBe('guide');
    expect(requestPolicy(page('/fr/levels/27'), ORIGIN)).toBe('guide');
    expect(guideOf('/fr/levels/27/_payload.json')).toMatchObject({ number: 27, prefix: '/fr', page: '/fr/levels/27', payload: '/fr/levels/27/_payload.json' });
    expect(guideOf('/levels/27')).toEqual({
      number: 27,
      prefix: '',
      page: '/levels/27',
      payload: '/levels/27/_payload.json',
      stepsPage: '/levels/27?steps=1',
      stepsPayload: '/levels/27/_payload.json?steps=1',
    });
  });

  it('keeps a guide with its steps (a guide in puzzles holds them back until ?steps=1), page and payload', () => {
    expect(requestPolicy(page('/levels/27?steps=1'), ORIGIN)).toBe('guide');
    expect(requestPolicy(get('/levels/27/_payload.json?steps=1'), ORIGIN)).toBe('guide');
    expect(requestPolicy(get('/levels/27/_payload.json?steps=2'), ORIGIN)).toBe('pass');
  });

  it("keeps a guide's step pictures, cache first: their names are immutable", () => {
    expect(requestPolicy(get('/guide-images/0123456789ab-480.webp'), ORIGIN)).toBe('picture');
    expect(requestPolicy(get('/guide-images/0123456789ab-960.avif'), ORIGIN)).toBe('picture');
    expect(pictureOf('/guide-images/0123456789ab-960.avif')).toBe('0123456789ab');
    // Not a copy's name, or a query the page never sends: left to the browser.
    for (const path of ['/guide-images/0123456789ab-480.png', '/guide-images/../og/default.png', '/guide-images/0123456789ab-480.webp?x=1']) {
      expect(requestPolicy(get(path), ORIGIN)).toBe('pass');
    }
  });

  it('treats every other page as a page: the network, the offline page without one, nothing kept', () => {
    for (const path of ['/', '/levels', '/levels/hardest', '/levels/27/report', '/levels/027', '/blog/hello', '/search?q=key', '/offline']) {
      expect(requestPolicy(page(path), ORIGIN)).toBe('page');
    }
    // The payloads of other pages, and a guide payload with a query the router never sends, are left to the browser.
    expect(requestPolicy(get('/levels/_payload.json'), ORIGIN)).toBe('pass');
    expect(requestPolicy(get('/levels/27/_payload.json?x=1'), ORIGIN)).toBe('pass');
    expect(guideOf('/levels/hardest')).toBeNull();
    expect(guideOf('/levels/0')).toBeNull();
  });

  it.each([
    '/api/v1/levels/27',
    '/api/v1/user_info',
    '/pricing',
    '/payment/success',
    '/payment/test-checkout',
    '/billing',
    '/usage',
    '/tools/image',
    '/admin',
    '/admin/guides',
    '/admin/queues/api/queues',
    '/auth/login',
    '/auth/google/callback',
    '/fr/pricing',
    '/fr/admin',
  ])('never caches %s, its page or its payload', (path) => {
    expect(isNeverCached(path)).toBe(true);
    expect(requestPolicy(get(`${path}/_payload.json`), ORIGIN)).toBe('pass');
    expect(requestPolicy(get(path), ORIGIN)).toBe('pass');
    // Opened as a page: the network only (the offline page when there is none), the API not even that.
    expect(requestPolicy(page(path), ORIGIN)).toBe(path.startsWith('/api/') ? 'pass' : 'page');
  });

  it('leaves alone what is signed in, written, from elsewhere, or not a page', () => {
    expect(requestPolicy(page('/levels/27', { authorization: 'Bearer abc' }), ORIGIN)).toBe('pass');
    expect(requestPolicy(get('/levels/27/_payload.json', { headers: { authorization: 'Bearer abc' } }), ORIGIN)).toBe('pass');
    expect(requestPolicy(get('/levels/27', { method: 'POST' }), ORIGIN)).toBe('pass');
    expect(requestPolicy(page('https://elsewhere.example/levels/27'), ORIGIN)).toBe('pass');
    expect(requestPolicy(get('/assets/entry-client-abc.js'), ORIGIN)).toBe('pass');
    expect(requestPolicy(get('/og/levels/27.png'), ORIGIN)).toBe('pass');
    expect(isNeverCached('/levels/27')).toBe(false);
  });

  it('stores a 200 page or payload meant to be stored, nothing else', () => {
    const request = page('/levels/27');
    expect(mayStore(request, answer())).toBe(true);
    expect(mayStore(get('/levels/27/_payload.json'), answer({ headers: { 'content-type': 'application/json; charset=utf-8' } }))).toBe(true);
    // Signed-in answers (SignedInGuard's no-store), private ones, ones handing out a token.
    expect(mayStore(request, answer({ headers: { 'cache-control': 'no-store' } }))).toBe(false);
    expect(mayStore(request, answer({ headers: { 'cache-control': 'private, max-age=60' } }))).toBe(false);
    expect(mayStore(request, answer({ headers: { authorization: 'Bearer abc' } }))).toBe(false);
    expect(mayStore(page('/levels/27', { authorization: 'Bearer abc' }), answer())).toBe(false);
    // Errors, redirects, other origins, other kinds of content.
    for (const status of [404, 500, 503, 304]) expect(mayStore(request, answer({ status }))).toBe(false);
    expect(mayStore(request, answer({ redirected: true }))).toBe(false);
    expect(mayStore(request, answer({ type: 'opaque' }))).toBe(false);
    expect(mayStore(request, answer({ headers: { 'content-type': 'image/png' } }))).toBe(false);
  });

  it("keeps only this build's pages: another build's name scripts this worker does not have", () => {
    const html = (buildId: string) => `<script type="application/json" id="__page">{"root":{"assets":{},"buildId":${JSON.stringify(buildId)}}}</script>`;
    expect(isPageOfBuild(html('abc123'), 'abc123')).toBe(true);
    expect(isPageOfBuild(html('def456'), 'abc123')).toBe(false);
    expect(isPageOfBuild('<p>"buildId" mentioned elsewhere</p>', 'abc123')).toBe(false);
    expect(guidesCacheName('abc123')).toBe('guides-abc123');
  });
});
