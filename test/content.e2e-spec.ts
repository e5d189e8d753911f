import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './support/app-process';
import { useInProcessSite } from './support/site';

/** The blog and content pages of the shipped sample content. */
describe('blog and content pages', () => {
  const site = useInProcessSite({
    env: {
      APP_STORE_URL: 'https://apps.example/mystery-doors',
      PLAY_STORE_URL: 'https://play.example/mystery-doors',
      REDIRECTS: JSON.stringify({ '/old-guide': '/levels/27', '/partner': 'https://partner.example/' }),
      ANALYTICS_ID: 'G-TEST123',
      SOCIAL_DISCORD_URL: 'https://discord.example/invite',
      SOCIAL_EMAIL: 'hello@guides.example',
      FOOTER_LINK_GROUPS: JSON.stringify({ Friends: [['Another puzzle site', 'https://friends.example/']] }),
    },
  });
  const get = (path: string) => fetch(`${site.url}${path}`, { redirect: 'manual' });
  const html = async (path: string, status = 200) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    return response.text();
  };

  it('lists the latest posts, newest first, and searches them', async () => {
    const blog = await html('/blog');
    expect(blog).toContain('Latest Posts');
    const order = ['Search every guide by what you see', 'Why our guides show hints first', 'Five habits of escape-room pros'].map((t) =>
      blog.indexOf(t),
    );
    expect(order.every((position, i) => position > 0 && (i === 0 || position > order[i - 1]!))).toBe(true);
    const found = await html('/blog?query=hint');
    expect(found).toContain('Why our guides show hints first');
    expect(found).not.toContain('Five habits of escape-room pros');
    expect(await html('/blog?query=spaceship')).toContain('No articles found');
  });

  it('serves a post whose slug spans several segments', async () => {
    const post = await html('/blog/2026/search-every-guide');
    expect(post).toContain('<title>Search every guide by what you see - Mystery Doors Guide</title>');
    expect(post).toContain('November 20, 2026');
    expect(await html('/blog/2026/no-such-post', 404)).toContain('Page Not Found: /blog/2026/no-such-post');
  });

  it('finds something for every search a post suggests (the bold words of a paragraph that mentions search)', async () => {
    const dir = join(ROOT, 'content/blog');
    const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.md'));
    const suggested = new Set<string>();
    for (const file of files) {
      const body = (await readFile(join(dir, file), 'utf8')).replace(/^---[\s\S]*?\n---\n/, '');
      for (const paragraph of body.split(/\n\s*\n/).filter((p) => /\bsearch/i.test(p))) {
        for (const [, words] of paragraph.matchAll(/\*\*([^*]+)\*\*/g)) suggested.add(words!);
      }
    }
    expect([...suggested]).toEqual(expect.arrayContaining(['telescope', 'snow globe']));
    for (const words of suggested) {
      const page = await html(`/levels?query=${encodeURIComponent(words)}`);
      expect({ words, found: /href="\/levels\/\d+"/.test(page.slice(page.indexOf('<main'), page.indexOf('</main>'))) }).toEqual({ words, found: true });
    }
  });

  it('lists posts by tag and by month, and refuses malformed ones with 404 (and a tag no post carries)', async () => {
    const tips = await html('/category/tips');
    expect(tips).toContain('Posts tagged #tips');
    expect(tips).toContain('Five habits of escape-room pros');
    expect(tips).not.toContain('Search every guide by what you see');
    const october = await html('/month/2026-10');
    expect(october).toContain('Posts from October 2026');
    expect(october).toContain('Why our guides show hints first');
    expect(october).not.toContain('Five habits');
    expect(await html('/month/2026-13', 404)).toContain('Page Not Found: /month/2026-13');
    expect(await html('/month/october', 404)).toContain('Page Not Found: /month/october');
    expect(await html('/category/Not%20A%20Tag', 404)).toContain('Page Not Found');
    expect(await html('/category/no-post-has-this', 404)).toContain('Page Not Found: /category/no-post-has-this');
  });

  it('serves the site icon at /favicon.ico', async () => {
    const icon = await get('/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });

  it('moves old /detail/{slug} addresses to the blog', async () => {
    const moved = await get('/detail/hints-first');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/blog/hints-first');
    expect((await get('/detail/nothing')).status).toBe(404);
  });

  it.each([
    ['/terms-of-service', 'Terms of Service'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/refund-policy', 'Refund Policy'],
    ['/app', 'The Game App'],
    ['/admax', 'Advertising'],
  ])('serves the content page %s', async (path, title) => {
    const page = await html(path);
    expect(page).toContain(`<h1 class="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">${title}</h1>`);
    expect(page).toMatch(/Last updated November \d{1,2}, 2026/);
  });

  it('asks the same eight questions on /faq as on the home page (one source)', async () => {
    const questions = (page: string) => [...page.matchAll(/<summary[^>]*>([^<]+)</g)].map((m) => m[1]);
    const home = questions(await html('/'));
    expect(home).toHaveLength(8);
    expect(questions(await html('/faq'))).toEqual(home);
  });

  it('lists the media coverage newest first, and the store links on /download', async () => {
    const media = await html('/media');
    const outlets = ['Pocket Puzzle Weekly', 'The Indie Arcade Podcast', 'Mobile Gaming Digest'].map((o) => media.indexOf(o));
    expect(outlets.every((position, i) => position > 0 && (i === 0 || position > outlets[i - 1]!))).toBe(true);
    const download = await html('/download');
    expect(download).toContain('href="https://apps.example/mystery-doors"');
    expect(download).toContain('href="https://play.example/mystery-doors"');
  });

  it('indexes categories, months and popular guides on /explore', async () => {
    const explore = await html('/explore');
    expect(explore).toContain('href="/category/tips"');
    expect(explore).toContain('href="/month/2026-10"');
    expect(explore).toContain('href="/levels/27"');
  });

  it('answers the redirect rules with a real 301, internal and external', async () => {
    const internal = await get('/old-guide');
    expect(internal.status).toBe(301);
    expect(internal.headers.get('location')).toBe('/levels/27');
    const external = await get('/partner');
    expect(external.status).toBe(301);
    expect(external.headers.get('location')).toBe('https://partner.example/');
    const payload = await (await get('/old-guide/_payload.json')).json();
    expect(payload).toMatchObject({ status: 301, redirect: '/levels/27' });
  });

  it('includes the analytics script only when configured, async and allowed by the CSP', async () => {
    const response = await get('/faq');
    const page = await response.text();
    expect(page).toMatch(/<script async="" src="https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=G-TEST123"/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain('https://www.googletagmanager.com');
    // Its inline snippet runs because the CSP names its hash, as it does the theme script's.
    const inline = [...page.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/(?:json|ld\+json)")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(2);
    expect(inline[1]).toContain("gtag('config',\"G-TEST123\")");
    for (const script of inline) expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it("shows 'Page not found' with a 404 for a slug with no page", async () => {
    expect(await html('/no-such-page', 404)).toContain('Page not found: /no-such-page');
  });

  it('shows only the configured social links and link groups in the footer', async () => {
    const page = await html('/faq');
    expect(page).toContain('href="https://discord.example/invite"');
    expect(page).toContain('href="mailto:hello@guides.example"');
    expect(page).not.toContain('>Twitch<');
    expect(page).toContain('>Friends</h2>');
    expect(page).toContain('href="https://friends.example/"');
    expect(page).not.toContain('>Products</h2>');
  });

  it('links the refund policy only when payments are on', async () => {
    expect(await html('/')).not.toContain('href="/refund-policy"');
  });

  it('lists every public page in the sitemap: the info pages, categories and months, but no refund policy or pricing with payments off', async () => {
    const xml = await html('/sitemap.xml');
    const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(paths).toEqual(expect.arrayContaining(['/', '/levels', '/blog', '/faq', '/download', '/media', '/explore', '/terms-of-service', '/privacy-policy']));
    expect(paths).toEqual(expect.arrayContaining(['/category/tips', '/category/guides', '/category/site-news', '/category/search']));
    expect(paths).toEqual(expect.arrayContaining(['/month/2026-09', '/month/2026-10', '/month/2026-11']));
    expect(paths).toEqual(expect.arrayContaining(['/blog/2026/search-every-guide', '/levels/27']));
    for (const path of ['/refund-policy', '/pricing', '/tools/image']) expect(paths).not.toContain(path);
    // Each listed page answers 200 (an address in the sitemap is a page, not a redirect or a 404).
    for (const path of paths.filter((p) => !p.startsWith('/levels/'))) expect([path, (await get(path)).status]).toEqual([path, 200]);
  });

  it('publishes Atom feeds of posts and of guides, linked from the pages', async () => {
    const blogFeed = await get('/blog/feed.xml');
    expect(blogFeed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const atom = await blogFeed.text();
    expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(atom.match(/<entry>/g)).toHaveLength(3);
    expect(atom).toContain(`<link href="${site.url.replace('127.0.0.1', 'localhost')}/blog/2026/search-every-guide"/>`);
    const levels = await (await get('/levels/feed.xml')).text();
    expect(levels.match(/<entry>/g)).toHaveLength(32);
    expect(await html('/blog')).toContain('<link rel="alternate" type="application/atom+xml" title="Mystery Doors Guide blog" href="/blog/feed.xml"/>');
  });
});
