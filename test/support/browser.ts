import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/**
 * Debian's build of Chromium's headless shell (apt-get install chromium-headless-shell), the
 * browser Playwright itself runs headless: the same Blink and V8 as `chromium`, without the full
 * browser around them, for about a third less CPU per test file (guide-puzzles.browser: 30-35
 * against 47-54 CPU-s). CHROMIUM_PATH overrides the binary (`/usr/bin/chromium` works too).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Contexts block service workers unless a test asks for them (`serviceWorkers: 'allow'`, as
 * test/offline.browser.e2e-spec.ts does): the site's worker (web/pwa/sw.ts) answers a page's own
 * requests once it controls the page, and page.route() then no longer sees them (Playwright's
 * documented limit), which other tests hold or fail requests with. Blocked, the site keeps its
 * hourly build check, as in a browser without service workers.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launch();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ serviceWorkers: 'block', ...options });
  return browser;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Resolves once React has committed the page's hydration: its root no longer holds server HTML
 * (what a folded part still holds is settled()'s to wait for). An element's fiber is not enough:
 * hydration runs in slices, and React attaches fibers while it renders, before the commit that
 * runs effects (a form enables its button in one) and attaches the event handlers.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((name) => name.startsWith('__reactContainer'));
    const root = key ? (document as unknown as Record<string, { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } }>)[key] : undefined;
    return root?.stateNode?.current?.memoizedState?.isDehydrated === false;
  });
  // The commit's effects run in a task of their own after it (and what they set, in a render right
  // after): a frame and a task later they have.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
}

/**
 * Whether React has hydrated this element (it carries React's props). A part of the page whose chunk
 * comes after the first render is plain HTML until then: a tap on one of its buttons is answered only
 * once the chunk has come (folded-parts.tsx clicks it again then), so a test that checks what a click
 * did right after it waits for this first.
 */
export const isHydrated = (locator: Locator) => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps')));

/**
 * Resolves once the page has hydrated and nothing on it is still loading (no `aria-busy` element:
 * the session, the account menu's chunk, balances and account data fetched after hydration are
 * in). What the browser tests wait for before they audit or read a page, instead of network idle.
 */
export async function settled(page: Page): Promise<void> {
  await hydrated(page);
  await page.waitForFunction(() => document.readyState === 'complete' && !document.querySelector('[aria-busy="true"]'));
  // A folded part of a level page (web/features/levels/folded-parts.tsx) is plain server HTML, not
  // aria-busy, until its chunk has come and React has hydrated it: a click before is answered only
  // then. The root's hydration commits well before that.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-part]')].every((part) => {
      const content = part.firstElementChild;
      return !content || Object.keys(content).some((key) => key.startsWith('__reactProps'));
    }),
  );
}
