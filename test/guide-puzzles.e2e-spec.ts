import { join } from 'node:path';
import { useSite } from './support/site';

/** A guide in puzzles over HTTP, on the sample content: its structured data and its pictures' copies. */
describe('guides in puzzles over HTTP (built app, sample content)', () => {
  const site = useSite({ env: { MIGRATE_ON_START: 'true', CONTENT_DIR: join(__dirname, '../content') } });
  const get = (path: string) => fetch(`${site.url}${path}`);

  it('describes each puzzle as a HowTo in an ItemList, the main escape first, with its steps and pictures', async () => {
    const html = await (await get('/levels/27')).text();
    const graph = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].flatMap((m) => JSON.parse(m[1]!)['@graph']);
    const list = graph.find((node) => node['@type'] === 'ItemList');
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
    const html = await (await get('/levels/27')).text();
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
