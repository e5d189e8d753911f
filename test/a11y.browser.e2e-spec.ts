import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { RunningApp } from './support/app-process';
import { readsSession, routeSamples, signedInOnly, signedOutOnly } from './support/audited-routes';
import { hydrated, settled } from './support/browser';
import { startBrowserSite, type BrowserSite } from './support/browser-site';
import { startSite } from './support/site';
import { poll } from './support/poll';
import { PAGES } from 'web/route-table';

const ADMIN = 'a11y-admin@example.com';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** The two widths audited; at each, both colour schemes. */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
/** Pages audited side by side (each in a context of its own): the audits wait on the browser, not on each other. */
const LANES = 2;

/** The queue dashboard (bull-board, with Redis): its overview and a queue's page. */
const QUEUE_DASHBOARD = ['/admin/queues', '/admin/queues/queue/mail'];

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Console errors, uncaught errors and CSP violations (the page's own policy reporting). */
export async function watchConsole(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    // A 404 page's own status is logged by Chromium itself: the page is right to answer 404.
    if (message.type() !== 'error' || (/status of 404/.test(message.text()) && message.location().url === page.url())) return;
    problems.push(message.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
  );
  return problems;
}

/**
 * The rules whose outcome depends on the colour scheme. The dark scheme changes only colours (the
 * same markup, other CSS custom properties; the theme button swaps a decorative icon), so in dark
 * mode these are the rules that can find anything the light mode of the same width did not.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** The violations on the page as it is now, one line each (rule, element, why); in dark mode the colour rules only. */
async function audit(page: Page, colourScheme: 'light' | 'dark'): Promise<string[]> {
  // axe-core comes from the context's init script (auditPages), which the page's CSP does not apply to.
  const runOnly = colourScheme === 'dark' ? { type: 'rule', values: COLOUR_RULES } : { type: 'tag', values: TAGS };
  const violations = await page.evaluate(
    (only) => (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe
      .run(document, { runOnly: only, resultTypes: ['violations'] })
      .then((result) => result.violations.map(({ id, help, nodes }) => ({ id, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) }))),
    runOnly,
  );
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.help}) at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`));
}

/**
 * Switches the OS colour scheme of a loaded page and waits until the page has followed it (the
 * media query's change event, then two frames) and its colours have finished their transitions:
 * axe reads the colours as painted.
 */
async function showScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  // One round trip: two frames, then a frame at a time until no transition runs.
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    await frame();
    await frame();
    while (document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')) await frame();
  });
}

/**
 * Audits each path in the four modes (two widths, light and dark) on one load: the modes differ only
 * in CSS (breakpoints and colour custom properties, which the page follows live), so the page is
 * loaded once at the desktop width and then switched, as a visitor turning their phone or their OS
 * theme would. The light audits run every rule, the dark ones the colour rules.
 */
async function auditPages(
  { browser, url, token, axeSource }: { browser: Browser; url: string; token: string; axeSource: string },
  paths: string[],
  signedIn: boolean,
  ready: (page: Page) => Promise<void> = settled,
) {
  const found: string[] = [];
  const lanes = Array.from({ length: LANES }, (_, lane) => paths.filter((_, i) => i % LANES === lane));
  await Promise.all(
    lanes.map(async (lanePaths, lane) => {
      // Each lane a visitor of its own (the site trusts one proxy hop here), so the per-client limits of the API count each apart.
      const context: BrowserContext = await browser.newContext({
        colorScheme: 'light',
        // The site honours reduced motion: a scheme switch repaints at once instead of fading (checked below).
        reducedMotion: 'reduce',
        viewport: WIDTHS[0],
        extraHTTPHeaders: { 'x-forwarded-for': `10.11.${signedIn ? 1 : 2}.${lane + 1}` },
      });
      if (signedIn) await context.addCookies([{ name: 'token', value: token, url }]);
      await context.addInitScript(axeSource);
      const page = await context.newPage();
      const problems = await watchConsole(page);
      const auditModes = async (where: string) => {
        // The page is loaded (or left) light at the first width.
        let shown: 'light' | 'dark' = 'light';
        for (const [i, size] of WIDTHS.entries()) {
          if (i > 0) {
            await page.setViewportSize(size);
            // getAnimations() brings the styles up to date with the new width, starting any transition it causes.
            await page.evaluate(async () => {
              while (document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')) await new Promise(requestAnimationFrame);
            });
          }
          // Light then dark at the first width, dark then light at the next: three changes for four modes.
          for (const scheme of i % 2 === 0 ? (['light', 'dark'] as const) : (['dark', 'light'] as const)) {
            if (scheme !== shown) await showScheme(page, scheme);
            shown = scheme;
            for (const line of await audit(page, scheme)) found.push(`${where} ${scheme} ${size.width}: ${line}`);
          }
        }
      };
      try {
        for (const path of lanePaths) {
          await page.setViewportSize(WIDTHS[0]);
          await page.emulateMedia({ colorScheme: 'light' });
          await page.goto(`${url}${path}`);
          await ready(page);
          await auditModes(path);
          // A clean console too: no error, no CSP violation, on every load.
          for (const problem of problems.splice(0)) found.push(`${path}: console: ${problem}`);
        }
        if (signedIn && ready === settled && lane === 0) {
          // The account menu, open (at the desktop width, where it opens as a panel).
          await page.setViewportSize(WIDTHS[0]);
          await page.emulateMedia({ colorScheme: 'light' });
          await page.getByRole('button', { name: 'Account' }).click();
          await page.getByTestId('account-email').waitFor();
          await auditModes('account menu');
        }
      } finally {
        await context.close();
      }
    }),
  );
  return found.sort();
}

/**
 * WCAG 2.2 AA as axe-core checks it, in Chromium, on every route of the route table and the queue
 * dashboard, at 1280x800 and 390x844, light and dark (the OS scheme; the site follows it).
 * Accounts, payments, Redis (so bull-board) and the ops screens are on.
 */
describe('accessibility (axe-core) in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;
  let token: string;
  let axeSource: string;
  let samples: Record<string, string>;

  beforeAll(async () => {
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    site = (await startSite({ browser: true, mail: true, redis: true, env: { MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', ADMIN_EMAILS: ADMIN, TRUST_PROXY: '1' } })) as BrowserSite;
    ({ app, browser } = site);
    token = await site.signedInUser(ADMIN);
    // An order paid through the test checkout and one still pending, for the pages that show one.
    const api = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${app.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect(response.ok).toBe(true);
      return (await response.json()) as { order_id: string };
    };
    const paid = (await api('/api/v1/checkout', { pack_id: 'starter' })).order_id;
    await api(`/api/v1/orders/${paid}/test_payment`, { result: 'paid' });
    const pending = (await api('/api/v1/checkout', { donation_usd: 2 })).order_id;
    // And one partly refunded, so /admin/orders/{id} is audited (at 390 px too) with rows in each of its tables.
    const refunded = (await api('/api/v1/checkout', { pack_id: 'starter' })).order_id;
    await api(`/api/v1/orders/${refunded}/test_payment`, { result: 'paid' });
    await api(`/api/v1/admin/orders/${refunded}/refund`, { amount_cents: 100 }, { 'idempotency-key': 'a11y-partial-refund' });
    samples = routeSamples({ paid, pending, refunded });
    // What players say, so /admin/guides is audited with an open report (its "Mark handled") and /levels/27 with its helpful share.
    const anonymous = (path: string, body: unknown, client: number) =>
      fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.12.0.${client}` }, body: JSON.stringify(body) });
    expect((await anonymous('/api/v1/levels/27/reports', { kind: 'wrong_step', message: 'Step 3 says left; it is the right door.' }, 1)).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await anonymous('/api/v1/levels/27/feedback', i < 8 ? { helpful: true } : { helpful: false, reason: 'unclear_step' }, i + 1)).status).toBe(204);
  });
  const on = () => ({ browser, url: app.url, token, axeSource });

  it('has a sample path for every route of the route table', () => {
    expect(Object.entries(samples).filter(([, path]) => !path)).toEqual([]);
  });

  afterAll(async () => {
    await site?.close();
  });

  it('finds no WCAG 2.2 AA violation on any route, signed out', async () => {
    const paths = Object.entries(samples).filter(([id]) => !signedInOnly(id)).map(([, path]) => path);
    expect(await auditPages(on(), [...paths, '/levels?difficulty=easy'], false)).toEqual([]);
  }, 600_000);

  it('finds no WCAG 2.2 AA violation on a guide in puzzles with puzzles open: a ladder with a hint shown, an extra, the steps with their pictures and marks', async () => {
    const withPuzzlesOpen = async (page: Page) => {
      await settled(page);
      await page.locator('#puzzle-dome-code > summary').click();
      await page.locator('#puzzle-dome-code').getByRole('button', { name: 'Show the first hint' }).click();
      await page.locator('#puzzle-dome-code li[data-hint]:not([hidden])').waitFor();
      await page.locator('#puzzle-shooting-star > summary').click();
    };
    expect(await auditPages(on(), ['/levels/27?steps=1'], false, withPuzzlesOpen)).toEqual([]);
  }, 600_000);

  it('finds no WCAG 2.2 AA violation on any page that reads the session or is for admins, signed in as an admin', async () => {
    // With Redis, /admin/queues is bull-board's (audited below); its page without Redis is audited after.
    const paths = Object.entries(samples).filter(([id]) => !signedOutOnly(id) && readsSession(id) && id !== 'admin-queues').map(([, path]) => path);
    expect(paths).toEqual(expect.arrayContaining(['/', '/pricing', '/tools/image', '/usage', '/admin', '/admin/guides', samples['admin-order']]));
    expect(await auditPages(on(), paths, true)).toEqual([]);
  }, 600_000);

  it('finds no WCAG 2.2 AA violation on the image tool with a large photo chosen: its plan, the clean-up offer, the options', async () => {
    const photo = join(site.dataDir, 'a11y-photo-6000x4000.jpg');
    await sharp({ create: { width: 6000, height: 4000, channels: 3, background: { r: 200, g: 180, b: 90 } } }).jpeg().toFile(photo);
    const chosen = async (page: Page) => {
      await settled(page);
      await page.getByTestId('image-file').setInputFiles(photo);
      await page.getByTestId('image-smaller').waitFor();
      // A JPEG result: the quality slider shows too.
      await page.getByTestId('image-format').selectOption('jpeg');
      await page.getByTestId('image-quality').waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    };
    expect(await auditPages(on(), ['/tools/image'], true, chosen)).toEqual([]);
  }, 300_000);

  it('finds no WCAG 2.2 AA violation on the queue dashboard (bull-board), which links back to /admin', async () => {
    const dashboard = async (page: Page) => {
      await page.getByRole('link', { name: 'Back to admin' }).waitFor();
      // bull-board's own app has rendered its queues.
      await page.getByText('mail', { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
    };
    expect(await auditPages(on(), QUEUE_DASHBOARD, true, dashboard)).toEqual([]);
  }, 300_000);

  it('closes the account menu on Escape (focus back on its button) and on a click outside; on the phone it leaves the header search free', async () => {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      await context.addCookies([{ name: 'token', value: token, url: app.url }]);
      const page = await context.newPage();
      try {
        await page.goto(`${app.url}/levels/27`);
        await hydrated(page);
        const button = page.getByRole('button', { name: 'Account' });
        await button.focus();
        await page.keyboard.press('Enter');
        await poll(() => button.getAttribute('aria-expanded')).toBe('true');
        const menu = page.getByTestId('account-email');
        await menu.waitFor();
        // The menu never lies over the header's search box.
        const search = (await page.getByRole('search', { name: 'Site search' }).boundingBox())!;
        const panel = (await page.locator(`[id="${(await button.getAttribute('aria-controls'))!}"]`).boundingBox())!;
        expect(panel.y >= search.y + search.height || panel.x >= search.x + search.width).toBe(true);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        await poll(() => button.getAttribute('aria-expanded')).toBe('false');
        await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Account');

        await button.click();
        await menu.waitFor();
        await page.mouse.click(5, 830);
        await menu.waitFor({ state: 'detached' });
      } finally {
        await context.close();
      }
    }
  });

  it('fits the search placeholders in their boxes on a phone (header signed out and signed in, home hero, /levels, /search)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      const places = [['/levels/27', 'header form[role="search"] input'], ['/', 'main form[role="search"] input'], ['/levels', '#levels-query'], ['/search', '#search-query'], ['/levels/27', 'signed in']] as const;
      for (const [path, where] of places) {
        const selector = where === 'signed in' ? 'header form[role="search"] input' : where;
        if (where === 'signed in') await context.addCookies([{ name: 'token', value: token, url: app.url }]);
        await page.goto(`${app.url}${path}`);
        await hydrated(page);
        // Signed in, the header's row also holds the balance: measured once it is there.
        if (where === 'signed in') await page.getByTestId('header-balance').waitFor();
        const fit = await page.locator(selector).first().evaluate((input: HTMLInputElement) => {
          const style = getComputedStyle(input);
          const context2d = document.createElement('canvas').getContext('2d')!;
          context2d.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return { placeholder: input.placeholder, text: Math.ceil(context2d.measureText(input.placeholder).width), room };
        });
        expect([where, fit.text <= fit.room ? 'fits' : `${fit.text} px of placeholder in ${fit.room} px`]).toEqual([where, 'fits']);
      }
    } finally {
      await context.close();
    }
  });

  it('searches the level list and the blog in place (no page load), and the address follows', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      let loads = 0;
      page.on('load', () => loads++);
      await page.goto(`${app.url}/levels?difficulty=medium`);
      await hydrated(page);
      const first = loads;
      await page.getByRole('search', { name: 'Level number or words' }).getByRole('searchbox').fill('telescope');
      await page.getByRole('search', { name: 'Level number or words' }).getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(`${app.url}/levels?query=telescope&difficulty=medium`);
      await page.getByRole('link', { name: /Locked Observatory/ }).first().waitFor();
      expect(loads).toBe(first);

      await page.goto(`${app.url}/blog`);
      await hydrated(page);
      const before = loads;
      await page.getByRole('search', { name: 'Search the blog' }).getByRole('searchbox').fill('hint');
      await page.getByRole('search', { name: 'Search the blog' }).getByRole('searchbox').press('Enter');
      await page.waitForURL(`${app.url}/blog?query=hint`);
      await page.getByText('Why our guides show hints first').waitFor();
      expect(loads).toBe(before);
    } finally {
      await context.close();
    }
  });

  it('ends transitions at once for a visitor who asks the OS for reduced motion', async () => {
    const durations = async (reducedMotion: 'reduce' | 'no-preference') => {
      const context = await browser.newContext({ reducedMotion });
      const page = await context.newPage();
      try {
        await page.goto(`${app.url}/levels`);
        await hydrated(page);
        // Every element with a transition (links, buttons, the header), as computed.
        return await page.evaluate(() =>
          [...document.querySelectorAll('*')].map((e) => getComputedStyle(e).transitionDuration).filter((d) => d.split(',').some((one) => parseFloat(one) > 0)),
        );
      } finally {
        await context.close();
      }
    };
    expect((await durations('no-preference')).length).toBeGreaterThan(0);
    expect((await durations('reduce')).every((d) => d.split(',').every((one) => parseFloat(one) < 0.001))).toBe(true);
  });

  it('shows media titles as links (underlined, in the link colour)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/media`);
      const title = page.locator('main h2 a').first();
      await poll(() => title.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe('underline');
    } finally {
      await context.close();
    }
  });
});

/** Without Redis the jobs run in the web process, and /admin/queues is the site's own page of its queues. */
describe('accessibility of the in-process queues page (no Redis)', () => {
  let site: BrowserSite;
  beforeAll(async () => {
    site = await startBrowserSite({ HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN });
  });
  afterAll(() => site?.close());

  it('finds no WCAG 2.2 AA violation on /admin/queues in four modes', async () => {
    const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    const token = await site.signedInUser(ADMIN);
    expect(await auditPages({ browser: site.browser, url: site.app.url, token, axeSource }, ['/admin/queues'], true)).toEqual([]);
  }, 120_000);
});

/** With accounts off (HAS_LOGIN unset) and every optional menu entry on. */
describe('a clean console with accounts off, and a long menu', () => {
  let site: BrowserSite;

  beforeAll(async () => {
    site = await startBrowserSite({ MENU_ENTRIES: 'download,faq,media,blog' });
  });

  it('keeps the header search usable at 1280 px with six menu entries (they move behind the menu button)', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${site.app.url}/levels/27`);
      await hydrated(page);
      const search = (await page.getByRole('search', { name: 'Site search' }).boundingBox())!;
      expect(search.width).toBeGreaterThanOrEqual(200);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Media' }).waitFor();
    } finally {
      await context.close();
    }
  });

  afterAll(() => site?.close());

  it('logs no console error and no CSP violation on any page kind', async () => {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    const problems = await watchConsole(page);
    const found: string[] = [];
    try {
      for (const path of PAGES.filter((route) => !/[:*]/.test(route.path)).map((route) => route.path)) {
        await page.goto(`${site.app.url}${path}`);
        await settled(page);
        for (const problem of problems.splice(0)) found.push(`${path}: ${problem}`);
      }
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  });
});
