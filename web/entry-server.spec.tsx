import type { Readable } from 'node:stream';
import { loadConfig } from 'src/config/app-config';
import type { PricingData } from 'src/contracts/billing';
import type { PageData } from 'src/contracts/page-data';
import type { RenderInput } from 'src/contracts/ssr';
import { PROGRESS_LIST_SCRIPT, THEME_SCRIPT } from 'src/contracts/inline-scripts';
import { fakePageData } from 'test/support/fake-page-data';
import { pageMatch } from 'test/support/page-match';
import { serverEntry } from './entry-server';

const base = fakePageData();
const config = base.config;
const assets = { scripts: ['/assets/entry-client-abc.js'], styles: ['/assets/app-abc.css'], preloads: [] };

function input(path: string, data: PageData = base, extra: Partial<RenderInput> = {}): RenderInput {
  return {
    url: `http://localhost:3000${path}`,
    match: pageMatch(path, data),
    headers: {},
    waitForAll: true,
    data,
    assets,
    buildId: 'test-build',
    signal: new AbortController().signal,
    ...extra,
  };
}

const HYDRATION_BLOCK = /<script type="application\/json" id="__page">([\s\S]*?)<\/script>/;
const hydrationJson = (html: string) => HYDRATION_BLOCK.exec(html)?.[1] ?? '';
/** The bodies of the inline scripts that would run (not external ones, not JSON data blocks). */
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/(?:json|ld\+json)")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

async function text(stream: Readable): Promise<string> {
  let html = '';
  for await (const chunk of stream) html += chunk.toString();
  return html;
}

describe('serverEntry.render', () => {
  it('renders the whole document with head tags hoisted and the hydration data once', async () => {
    const output = await serverEntry.render(input('/'));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(200);
    const html = await text(output.stream);
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"><head>/);
    const head = html.slice(0, html.indexOf('</head>'));
    // 'Mystery Doors Walkthrough: Hints and Solutions - Mystery Doors Guide' would exceed 60 characters.
    expect(head).toContain('<title>Mystery Doors Walkthrough: Hints and Solutions</title>');
    expect(head).toContain('<link rel="canonical" href="http://localhost:3000/"/>');
    // The stylesheet the first paint waits for is asked for before any script.
    expect(head).toContain('<link rel="stylesheet" href="/assets/app-abc.css" data-precedence="default"/>');
    expect(head.indexOf('rel="stylesheet"')).toBeLessThan(head.indexOf('rel="modulepreload"'));
    expect(head.indexOf('rel="modulepreload"')).toBeGreaterThan(0);
    expect(html).toMatch(/<script type="module" src="\/assets\/entry-client-abc\.js"[^>]* async=""><\/script>/);
    // The hydration data is a JSON data block in <head>; the only inline script is the theme script (allowed by hash).
    expect(head.match(/<script type="application\/json" id="__page">/g)).toHaveLength(1);
    expect(JSON.parse(hydrationJson(html))).toMatchObject({ page: { routeId: 'home', url: '/' }, root: { buildId: 'test-build' } });
    expect(inlineScripts(html)).toEqual([THEME_SCRIPT, PROGRESS_LIST_SCRIPT]);
    expect(html).not.toContain('nonce');
  });

  it("preloads the page's own chunks from the page chunk map, and hands the browser the map's URL, not the map", async () => {
    const pageChunks = {
      url: '/assets/page-chunks-abc.json',
      map: { files: ['/assets/home.page-a.js', '/assets/level-card-b.js', '/assets/blog-list.page-c.js'], pages: { home: [0, 1], blog: [2, 1] } },
    };
    const output = await serverEntry.render(input('/', base, { assets: { ...assets, preloads: ['/assets/i18n-abc.js'], pageChunks } }));
    if (output.kind !== 'html') throw new Error('expected html');
    const html = await text(output.stream);
    const head = html.slice(0, html.indexOf('</head>'));
    const preloads = [...head.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((m) => m[1]);
    expect(preloads).toEqual(['/assets/i18n-abc.js', '/assets/home.page-a.js', '/assets/level-card-b.js']);
    expect(html).not.toContain('blog-list.page');
    // The first render needs the site's config and build id; the map's URL is for the pages after it.
    expect(JSON.parse(hydrationJson(html)).root).toEqual({ config, buildId: 'test-build', pageChunks: '/assets/page-chunks-abc.json' });
  });

  it('escapes loader data so it cannot close the script element', async () => {
    const hostile = { ...base, config: { ...config, siteName: '</script><script>alert(1)</script>' } };
    const output = await serverEntry.render(input('/', hostile));
    if (output.kind !== 'html') throw new Error('expected html');
    const html = await text(output.stream);
    expect(html).not.toContain('<script>alert(1)');
    expect(hydrationJson(html)).toContain('\\u003c/script>');
    expect(JSON.parse(hydrationJson(html))).toMatchObject({ root: { config: { siteName: '</script><script>alert(1)</script>' } } });
  });

  it('answers an unknown path with the 404 page and its message', async () => {
    const output = await serverEntry.render(input('/no/such/page?x=1'));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(404);
    const html = await text(output.stream);
    expect(html).toContain('This page could not be found');
    expect(html).toContain('Page not found: /no/such/page');
  });

  it('rejects when rendering itself fails, and the bridge then has a plain error document', async () => {
    const missingLevels = { ...base, config: { ...config, levels: undefined } } as unknown as PageData;
    await expect(serverEntry.render(input('/', missingLevels))).rejects.toThrow();
    const html = serverEntry.renderErrorDocument({ assets, status: 500 });
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('An error occurred');
    expect(html).toContain('href="/"');
    expect(html).toContain('/assets/app-abc.css');
  });

  it('streams the shell to people without waiting for everything', async () => {
    const output = await serverEntry.render(input('/', base, { waitForAll: false }));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(200);
    // Nothing suspended, so the output says the document is already complete (the bridge sends it whole).
    expect(output.complete).toBe(true);
    const chunks: string[] = [];
    for await (const chunk of output.stream) chunks.push(String(chunk));
    // React's writes leave as one chunk (FlushCoalescer), not one per 2 KB.
    expect(chunks).toHaveLength(1);
    const html = chunks[0]!;
    expect(html).toContain('</html>');
    // Nothing suspends on the server, so React adds no inline script of its own that the CSP would block (the home page's own: the theme and "Continue at level N").
    expect(inlineScripts(html)).toEqual([THEME_SCRIPT, PROGRESS_LIST_SCRIPT]);
  });
});

/** A redirect has no cache key: it is answered before the cache. */
function cacheKey(pathAndQuery: string): string | null {
  const match = serverEntry.match(pathAndQuery, base);
  return match.kind === 'page' ? match.cacheKey : null;
}
const adminOnly = (pathAndQuery: string) => serverEntry.match(pathAndQuery, base).adminOnly;

describe('serverEntry.match: the cache key', () => {
  it('keeps only the query parameters the route reads, in the route\'s order', () => {
    expect(cacheKey('/levels/27')).toBe('/levels/27');
    expect(cacheKey('/levels/27?x=random&utm_source=mail')).toBe('/levels/27');
    expect(cacheKey('/levels?x=random')).toBe('/levels');
    expect(cacheKey('/levels?page=2&x=1&difficulty=hard')).toBe('/levels?difficulty=hard&page=2');
    expect(cacheKey('/levels?difficulty=hard&page=2')).toBe('/levels?difficulty=hard&page=2');
    expect(cacheKey('/blog?query=doors&fbclid=abc')).toBe('/blog?query=doors');
    expect(cacheKey('/?x=1')).toBe('/');
  });

  it('is null for pages that are not cached: accounts, admin', () => {
    expect(cacheKey('/auth/login?x=1')).toBeNull();
    expect(cacheKey('/admin/errors?scope=server')).toBeNull();
  });
});

describe('serverEntry.payload', () => {
  it('returns only the page state, not the root data', async () => {
    await expect(serverEntry.payload(input('/'))).resolves.toEqual({
      routeId: 'home',
      locale: 'en',
      params: {},
      status: 200,
      data: { featured: [expect.objectContaining({ number: 27 })], guides: '1-5 27 30' },
    });
  });

  it('returns the 404 with its message for an unknown page', async () => {
    await expect(serverEntry.payload(input('/missing/page'))).resolves.toEqual({
      routeId: 'not-found',
      locale: 'en',
      params: {},
      status: 404,
      error: { status: 404, message: 'Page not found: /missing/page' },
    });
  });
});

describe('the payment pages', () => {
  const paymentsOn = loadConfig({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true' }).public;
  const pricing: PricingData = {
    packs: [
      { id: 'starter', name: 'Starter', credits: 100, validity_days: 30, price_cents: 299, currency: 'usd', most_popular: false, features: ['100 image conversions'] },
      { id: 'popular', name: 'Popular', credits: 500, validity_days: 90, price_cents: 999, currency: 'usd', most_popular: true, features: ['500 image conversions'] },
      { id: 'pro', name: 'Pro', credits: 2000, validity_days: 365, price_cents: 2999, currency: 'usd', most_popular: false, features: ['2,000 image conversions'] },
    ],
    test_mode: true,
    trial: { credits: 10, days: 14 },
    donation: { credits_per_dollar: 50, min_usd: 1, max_usd: 500, validity_days: 365 },
    refund_rule: { window_days: 14, max_used_percent: 10 },
  };
  const on = fakePageData({ config: paymentsOn, billing: { ...fakePageData().billing, pricing: async () => pricing } });
  const withStripe = fakePageData({ config: { ...paymentsOn, testPayments: false }, billing: { ...fakePageData().billing, pricing: async () => ({ ...pricing, test_mode: false }) } });

  it('are 404 while payments are off', async () => {
    for (const path of ['/pricing', '/billing', '/usage', '/payment/success', '/payment/test-checkout']) {
      await expect(serverEntry.payload(input(path))).resolves.toMatchObject({ status: 404, error: { message: `Page not found: ${path}` } });
    }
  });

  it('render the pricing table, the trial and the donation terms', async () => {
    const output = await serverEntry.render(input('/pricing', on));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(200);
    const html = await text(output.stream);
    expect(html).toContain('Most popular');
    expect(html).toContain('500 credits');
    expect(html).toContain('$9.99');
    expect(html).toContain('Valid for 90 days');
    expect(html).toContain('Valid for a whole year');
    expect(html).not.toContain('Valid for 365 days');
    // One way of writing a number: the card's credits and the pack's features alike.
    expect(html).toContain('2,000 credits');
    expect(html.replace(/<script\b[\s\S]*?<\/script>/g, '')).not.toMatch(/\b2000\b/);
    expect(html).toContain('14-day free trial, no credit card');
    expect(html).toContain('$1 donation = 50 credits');
    expect(html).toContain('Donated credits are valid for 365 days.');
    expect(html).toMatch(/<a href="\/pricing" aria-current="page"[^>]*>Pricing<\/a>/);
    expect(html).toContain('Test mode: purchases go to a test checkout and no real money is taken.');
  });

  it('offer the free trial on the sign-up page, only while payments are on', async () => {
    const signUp = async (config: typeof paymentsOn) => {
      const output = await serverEntry.render(input('/auth/signup', fakePageData({ config })));
      if (output.kind !== 'html') throw new Error('expected html');
      return text(output.stream);
    };
    const on = await signUp(paymentsOn);
    expect(on).toContain('<strong>14-day free trial, no credit card.</strong>');
    expect(on).toContain('Confirm your email and get 10 credits');
    expect(await signUp(loadConfig({ NODE_ENV: 'test', HAS_LOGIN: 'true' }).public)).not.toContain('free trial');
  });

  it('have no test checkout (404) and no test-mode note once Stripe takes the payments', async () => {
    await expect(serverEntry.payload(input('/payment/test-checkout?order=x', withStripe))).resolves.toMatchObject({ status: 404 });
    const output = await serverEntry.render(input('/pricing', withStripe));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(await text(output.stream)).not.toContain('Test mode');
  });

  it('say "test mode" on every page that involves money while payments are test payments, and nowhere once Stripe takes them', async () => {
    for (const path of ['/pricing', '/billing', '/usage', '/payment/success?order=x', '/payment/test-checkout?order=x', '/tools/image']) {
      for (const [data, shown] of [[on, true], [withStripe, false]] as const) {
        const output = await serverEntry.render(input(path, data));
        if (output.kind !== 'html') throw new Error('expected html');
        const html = await text(output.stream);
        expect([path, shown, /Test mode|Test checkout/.test(html)]).toEqual([path, shown, shown]);
      }
    }
  });

  it('render the account pages the same for everyone, with no user data and not indexed', async () => {
    for (const path of ['/billing', '/usage', '/payment/success?order=x', '/payment/test-checkout?order=x']) {
      const output = await serverEntry.render(input(path, on));
      if (output.kind !== 'html') throw new Error('expected html');
      expect(output.status).toBe(200);
      const html = await text(output.stream);
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('Loading…');
    }
  });
});

describe('the image tool', () => {
  const on = fakePageData({ config: loadConfig({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true' }).public });

  it('is a 404 while payments are off, and missing from the menu', async () => {
    await expect(serverEntry.payload(input('/tools/image'))).resolves.toMatchObject({ status: 404, error: { message: 'Page not found: /tools/image' } });
    const output = await serverEntry.render(input('/'));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(await text(output.stream)).not.toContain('/tools/image');
  });

  it('renders the form the same for everyone: tabs, conversions, the cost, and no job, balance or user data', async () => {
    const output = await serverEntry.render(input('/tools/image', on));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(200);
    const html = await text(output.stream);
    expect(html).toContain('<h1 class="text-3xl font-extrabold tracking-tight sm:text-4xl">AI image upscaler</h1>');
    expect(html).toMatch(/role="tablist" aria-label="Image source"/);
    expect(html).toMatch(/role="tab"[^>]*aria-selected="true"[^>]*>.*?Upload<\/button>/);
    expect(html).toMatch(/role="tab"[^>]*aria-selected="false"[^>]*>.*?Image URL<\/button>/);
    expect(html).toContain('accept="image/jpeg,image/png,image/webp,image/gif"');
    expect(html).toContain('AI upscale, fast');
    expect(html).toContain('Takes images up to 2048 px as they are (up to 1024 px for 3x and 4x)');
    expect(html).toMatch(/name="size" checked=""\/>2x<\/label>/);
    expect(html).toMatch(/name="conversion" checked="" value="ai-2x"/);
    expect(html).toContain('1 credit');
    expect(html).toMatch(/<a href="\/tools\/image" aria-current="page"[^>]*>Image tool<\/a>/);
    // What belongs to the user loads in the browser: no wait notice, no balance, no sign-in note, no history yet.
    expect(html).not.toContain('Processing image');
    expect(html).not.toContain('data-testid="image-balance"');
    expect(html).not.toContain('data-testid="image-sign-in-note"');
    expect(html).not.toContain('Please enter a valid image URL');
    expect(html).toContain('Loading…');
    expect(html).not.toContain('noindex');
  });
});

describe('the admin pages', () => {
  const groups = [
    {
      fingerprint: 'f1',
      error_type: 'CLIENT_ERROR' as const,
      message: '<script>alert(1)</script> boom',
      backtrace: 'Error: boom\n    at <anonymous>',
      path: '/levels/27',
      build_id: 'b1',
      count: 3,
      first_seen_at: '2026-11-20T10:00:00.000Z',
      last_seen_at: '2026-11-22T10:00:00.000Z',
    },
  ];
  const data = fakePageData({ ops: { errors: async () => groups, queues: async () => ({ mode: 'inline', queues: [] }), attention: async () => ({ mail_given_up: [], redis_problem: null }) } });

  it('are admin-only paths, never cached', () => {
    for (const path of ['/admin', '/admin/errors', '/admin/queues']) {
      expect(adminOnly(path)).toBe(true);
      expect(cacheKey(path)).toBeNull();
    }
    expect(adminOnly('/levels/27')).toBe(false);
    expect(adminOnly('/administration')).toBe(false);
  });

  it('do not exist for anyone but an admin: the 404 of an unknown path, and no loader runs', async () => {
    const errors = jest.fn(async () => groups);
    const watched = fakePageData({ ops: { errors, queues: async () => ({ mode: 'inline', queues: [] }), attention: async () => ({ mail_given_up: [], redis_problem: null }) } });
    for (const path of ['/admin', '/admin/errors', '/admin/queues']) {
      await expect(serverEntry.payload(input(path, watched))).resolves.toMatchObject({ status: 404, error: { message: `Page not found: ${path}` } });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('render the error groups for an admin, their text escaped', async () => {
    const output = await serverEntry.render(input('/admin/errors', data, { admin: true }));
    if (output.kind !== 'html') throw new Error('expected html');
    expect(output.status).toBe(200);
    const html = await text(output.stream);
    const body = html.replace(HYDRATION_BLOCK, '');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; boom');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toContain('2026-11-22 10:00:00 UTC');
    expect(body).toContain('<meta name="robots" content="noindex"/>');
  });

  it('take the error scope from the query, all when it is not one', async () => {
    await expect(serverEntry.payload(input('/admin/errors?scope=server', data, { admin: true }))).resolves.toMatchObject({ status: 200, data: { scope: 'server' } });
    await expect(serverEntry.payload(input('/admin/errors?scope=nope', data, { admin: true }))).resolves.toMatchObject({ status: 200, data: { scope: 'all' } });
  });
});
