import { join } from 'node:path';
import { useInProcessSite } from './support/site';

/** A guide in puzzles over HTTP, on the sample content: its structured data and its pictures' copies. */
describe('guides in puzzles over HTTP (sample content)', () => {
  const site = useInProcessSite({ env: { MIGRATE_ON_START: 'true', CONTENT_DIR: join(__dirname, '../content') } });
  const get = (path: string) => fetch(`${site.url}${path}`);

  const graphOf = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].flatMap((m) => JSON.parse(m[1]!)['@graph']);

  it('holds the steps back on the first view: the puzzles listed with the URL of their steps, no step text or picture in the page or its data', async () => {
    const html = await (await get('/levels/27')).text();
    const list = graphOf(html).find((node) => node['@type'] === 'ItemList');
    const items = list.itemListElement.map((item: { '@type': string; position: number; name: string; url: string }) => {
      const at = new URL(item.url);
      return [item['@type'], item.position, item.name, at.pathname + at.search + at.hash];
    });
    expect(items).toEqual([
      ['ListItem', 1, 'How do I move the telescope?', '/levels/27?steps=1#steps-telescope'],
      ['ListItem', 2, 'What is the code for the dome door?', '/levels/27?steps=1#steps-dome-code'],
      ['ListItem', 3, 'Where is the bonus shooting star?', '/levels/27?steps=1#steps-shooting-star'],
    ]);
    expect(html).not.toContain('/guide-images/');
    expect(html).not.toContain('star chart</strong> on the desk');
    expect(html).toContain('<a href="/levels/27?steps=1#solution-steps" id="solution-steps"');
    // The hints are there, each ladder's (the reveal state shows before any module runs).
    expect(html).toContain('Read the counts left to right, Kite, Lantern, Crown');
    const payload = await (await get('/levels/27/_payload.json')).json();
    expect(payload.data).toMatchObject({ kind: 'guide', stepsOnRequest: true });
    expect(payload.data.level.steps).toEqual([
      { html: '', atSeconds: 12 },
      { html: '', atSeconds: 41 },
      { html: '', atSeconds: 75 },
      { html: '', atSeconds: 110 },
      { html: '', atSeconds: 150 },
      { html: '', atSeconds: 200 },
      { html: '' },
    ]);
    // A guide without puzzles is as it was: its steps in the page.
    const oneLadder = (await (await get('/levels/2/_payload.json')).json()).data;
    expect(oneLadder.stepsOnRequest).toBeUndefined();
    expect(oneLadder.level.steps[0].html).not.toBe('');
  });

  it('describes each puzzle as a HowTo in an ItemList on the page with the steps, the main escape first, with its steps and pictures', async () => {
    const html = await (await get('/levels/27?steps=1')).text();
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/levels\/27"/);
    const list = graphOf(html).find((node) => node['@type'] === 'ItemList');
    const howTos = list.itemListElement.map((item: { position: number; item: { '@type': string; name: string } }) => [item.position, item.item['@type'], item.item.name]);
    expect(howTos).toEqual([
      [1, 'HowTo', 'How do I move the telescope?'],
      [2, 'HowTo', 'What is the code for the dome door?'],
      [3, 'HowTo', 'Where is the bonus shooting star?'],
    ]);
    const steps = list.itemListElement[1].item.step;
    expect(steps[0]).toMatchObject({ '@type': 'HowToStep', text: 'Tap the star chart on the desk: three constellations are circled, the Kite, the Lantern and the Crown, from left to right.' });
    // Step text is plain: no markup for a crawler to read as text.
    expect(list.itemListElement.flatMap((item: { item: { step: { text: string }[] } }) => item.item.step.map((step) => step.text)).join()).not.toMatch(/[<>]/);
    // A step's image is an absolute URL the site serves.
    const image = new URL(steps[0].image as string);
    const picture = await get(image.pathname);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');
  });

  it('serves each copy immutable, and nothing else under /guide-images', async () => {
    const html = await (await get('/levels/27?steps=1')).text();
    const copies = [...new Set([...html.matchAll(/\/guide-images\/[0-9a-f]{12}-\d+\.(?:avif|webp)/g)].map((m) => m[0]))];
    // Two pictures (the room, the sky), two widths, two formats.
    expect(copies).toHaveLength(8);
    for (const copy of copies) {
      const response = await get(copy);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toBe(copy.endsWith('.avif') ? 'image/avif' : 'image/webp');
    }
    for (const path of ['/guide-images/000000000000-480.webp', '/guide-images/..%2Fpackage.json', '/guide-images/x.png']) {
      expect((await get(path)).status).toBe(404);
    }
  });
});
