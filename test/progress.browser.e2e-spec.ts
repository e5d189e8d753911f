import type { BrowserContext, Page } from 'playwright-core';
import { hydrated, settled } from './support/browser';
import { BROWSER_PASSWORD, signUpAndSignIn, startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

const EMAIL = 'player@example.com';

/**
 * Progress as a player meets it: marks without an account, kept across reloads and drawn before
 * the page's JavaScript runs, then merged into an account at sign-in and found on a second device.
 */
describe('progress in a real browser', () => {
  let site: BrowserSite;
  let phone: BrowserContext;
  let laptop: BrowserContext;

  beforeAll(async () => {
    site = await startBrowserSite({ HAS_LOGIN: 'true' });
    phone = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    laptop = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await phone?.close();
    await laptop?.close();
    await site?.close();
  });

  const url = (path: string) => `${site.app.url}${path}`;
  const markOf = (page: Page, level: number) => page.locator(`li[data-level-mark="${level}"]`).getAttribute('data-mark');
  const pressed = (page: Page, name: string) => page.getByRole('button', { name }).getAttribute('aria-pressed');

  /** Signs in with the account made on the phone, from the laptop's login page. */
  async function signIn(page: Page) {
    await page.goto(url('/auth/login'));
    await hydrated(page);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(BROWSER_PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/'));
  }

  async function mark(page: Page, level: number, name: 'Solved it' | 'Still stuck') {
    await page.goto(url(`/levels/${level}`));
    await hydrated(page);
    await page.getByRole('button', { name }).click();
    await poll(() => pressed(page, name)).toBe('true');
  }

  it('marks levels without an account: the guide, the list and the home page show them after a reload, and only counts reach the server', async () => {
    const page = await phone.newPage();
    const api: string[] = [];
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) api.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await mark(page, 1, 'Solved it');
    await mark(page, 2, 'Solved it');
    await mark(page, 27, 'Still stuck');
    // "Still stuck" points to the next rung of the ladder in view: with no puzzle open, where you are stuck;
    // then, with "What is the code for the dome door?" open, its next hint, then its steps.
    await page.getByRole('button', { name: 'Pick where you are stuck' }).click();
    await page.locator('#puzzle-dome-code > summary').click();
    await page.getByRole('button', { name: 'Show the next hint' }).click();
    await page.locator('#puzzle-dome-code').getByText('1 of 3 revealed').waitFor();
    await page.getByRole('button', { name: 'Show the next hint' }).click();
    await page.getByRole('button', { name: 'Show the next hint' }).click();
    await page.getByRole('button', { name: 'Open the step-by-step solution' }).click();
    await poll(() => page.locator('#solution-steps').evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);

    // Tapped again, a mark is taken back; the other one replaces it.
    await page.getByRole('button', { name: 'Solved it' }).click();
    await poll(() => pressed(page, 'Still stuck')).toBe('false');
    await page.getByRole('button', { name: 'Still stuck' }).click();
    await poll(() => pressed(page, 'Still stuck')).toBe('true');

    await page.reload();
    await hydrated(page);
    expect(await pressed(page, 'Still stuck')).toBe('true');
    await page.goto(url('/levels'));
    await hydrated(page);
    expect([await markOf(page, 1), await markOf(page, 2), await markOf(page, 3), await markOf(page, 27)]).toEqual(['solved', 'solved', null, 'stuck']);
    await page.getByRole('button', { name: 'Hide solved levels' }).click();
    await poll(() => page.locator('li[data-level-mark="1"]').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Hide solved levels' }).click();
    await poll(() => page.locator('li[data-level-mark="1"]').isVisible()).toBe(true);
    await page.goto(url('/'));
    await page.getByRole('link', { name: 'Continue at level 3' }).waitFor();

    // Signed out, nothing but the anonymous taps (and the session check every page makes) reached the API.
    await poll(() => api.filter((request) => request.includes('/progress')).length).toBe(5);
    expect([...new Set(api)].sort()).toEqual(['GET /api/v1/user_info', 'POST /api/v1/levels/1/progress', 'POST /api/v1/levels/2/progress', 'POST /api/v1/levels/27/progress']);
    // Hydration met the marks the inline script had drawn without a mismatch (React would report one).
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the marks before any JavaScript module runs: no flash of the wrong state on a cached page', async () => {
    const page = await phone.newPage();
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(url('/levels'));
    expect([await markOf(page, 1), await markOf(page, 27), await markOf(page, 3)]).toEqual(['solved', 'stuck', null]);
    expect(await page.locator('li[data-level-mark="1"]').getByText('Solved').isVisible()).toBe(true);
    expect(await page.locator('li[data-level-mark="3"]').getByText('Solved').isVisible()).toBe(false);
    await page.goto(url('/'));
    expect(await page.getByRole('link', { name: 'Continue at level 3' }).getAttribute('href')).toBe('/levels/3');
    await page.goto(url('/levels/27'));
    expect(await pressed(page, 'Still stuck')).toBe('true');
    expect(await pressed(page, 'Solved it')).toBe('false');
    // The next rung: the guide is in puzzles and none is open, so where you are stuck.
    expect(await page.getByRole('button', { name: 'Pick where you are stuck' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Show the next hint' }).isVisible()).toBe(false);
    // And the remembered hints of the dome-code puzzle are there before any module runs.
    await page.locator('#puzzle-dome-code > summary').click();
    expect(await page.locator('#puzzle-dome-code li[data-hint]:not([hidden])').count()).toBe(3);
    await page.close();
  });

  it('continues at the next level with a guide, as the guide\'s "On to level N" does, in the inline script and in React alike', async () => {
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      // Level 27 solved; 28 and 29 have no guide (the sample's next guide is 30).
      await mark(page, 27, 'Solved it');
      await page.getByRole('link', { name: 'On to level 30' }).waitFor();
      // The inline script alone (no module runs), then React after hydration: the same level.
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(url('/'));
      expect(await page.getByRole('link', { name: 'Continue at level 30' }).getAttribute('href')).toBe('/levels/30');
      await page.unroute('**/assets/*.js');
      // The modules refused above logged their failed loads; from here on, nothing (a hydration mismatch would be an error).
      problems.splice(0);
      await page.goto(url('/'));
      await hydrated(page);
      expect(await page.getByRole('link', { name: 'Continue at level 30' }).getAttribute('href')).toBe('/levels/30');
      await page.goto(url('/progress'));
      await hydrated(page);
      expect(await page.getByRole('link', { name: 'Continue at level 30' }).getAttribute('href')).toBe('/levels/30');
      // In the list, the "Solved" badge keeps 27's card in line with 30's beside it (two columns on a phone).
      await page.goto(url('/levels'));
      await hydrated(page);
      await page.locator('li[data-level-mark="27"]').getByText('Solved').waitFor();
      const top = async (level: number) => (await page.locator(`li[data-level-mark="${level}"]`).getByText(String(level), { exact: true }).boundingBox())!.y;
      expect(await top(27)).toBe(await top(30));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('merges into the account at sign-in and follows the player to a second device', async () => {
    const page = await phone.newPage();
    await signUpAndSignIn(site, page, EMAIL);
    await page.goto(url('/progress'));
    await settled(page);
    await page.getByText(`Signed in as ${EMAIL}: your progress is kept in your account too.`).waitFor();
    await page.getByText('2 solved · 1 still stuck').waitFor();

    const other = await laptop.newPage();
    await signIn(other);
    await other.getByRole('link', { name: 'Continue at level 3' }).waitFor();
    await other.goto(url('/levels'));
    await poll(async () => [await markOf(other, 1), await markOf(other, 2), await markOf(other, 27)]).toEqual(['solved', 'solved', 'stuck']);

    // A change on the laptop reaches the phone at its next page; it is one small request, that mark only.
    const sent: { levels: { level: number }[]; since?: string }[] = [];
    other.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/me/progress') sent.push(request.postDataJSON());
    });
    await mark(other, 27, 'Solved it');
    await poll(() => sent.find((body) => body.levels.some((item) => item.level === 27))).toEqual({
      levels: [{ level: 27, state: 'solved', ago: expect.any(Number) }],
      since: expect.any(String),
    });
    await poll(async () => {
      await page.goto(url('/levels'));
      await settled(page);
      return markOf(page, 27);
    }).toBe('solved');

    // Signing out keeps this browser's copy.
    await other.getByLabel('Account').click();
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    await other.goto(url('/levels'));
    expect(await markOf(other, 1)).toBe('solved');

    // Cleared on the phone: the account too, so the laptop's older marks go at its next sign-in.
    await page.goto(url('/progress'));
    await settled(page);
    await page.getByRole('button', { name: 'Clear all progress' }).click();
    await page.getByRole('button', { name: 'Yes, clear it' }).click();
    await page.getByText('Your progress is cleared.').waitFor();
    await page.getByText('No progress yet.', { exact: false }).waitFor();
    await signIn(other);
    await other.goto(url('/levels'));
    await poll(async () => {
      await other.reload();
      await settled(other);
      return markOf(other, 1);
    }).toBeNull();
    await other.close();
    await page.close();
  });

  it('exports the marks as JSON', async () => {
    const page = await phone.newPage();
    await mark(page, 4, 'Solved it');
    await page.goto(url('/progress'));
    await settled(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^progress-\d{4}-\d\d-\d\d\.json$/);
    const document = JSON.parse(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')));
    expect(document.levels).toEqual(expect.arrayContaining([{ level: 4, state: 'solved', changedAt: expect.stringMatching(/^\d{4}-/) }]));
    await page.close();
  });
});
