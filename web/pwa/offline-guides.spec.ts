import { guideRef } from './caching-rules';
import { FOLLOWING_GUIDES, keepWithFollowing, nextGuideNumber, offlineGuide, pictureUrls, readOfflineGuides, type GuideStore } from './offline-guides';

const guidePayload = (number: number, next?: number) => ({
  locale: 'en',
  routeId: 'level',
  params: { id: String(number) },
  status: 200,
  data: {
    kind: 'guide',
    level: { number, title: `Room ${number}`, steps: [{ html: 'Tap', picture: { src: `/guide-images/${String(number).padStart(12, 'a')}`, widths: [480, 960] } }, { html: 'Go' }] },
    ...(next ? { next: { number: next, title: `Room ${next}` } } : {}),
  },
});

/** A cache holding the guides 3, 10, 11 and 20 in that order (each `next` the one after), as the worker would fill it. */
function fakeStore(nexts: Record<number, number | undefined>) {
  const kept: string[] = [];
  const store: GuideStore = {
    async keep(url) {
      kept.push(url);
    },
    async pictures(urls) {
      kept.push(...urls);
    },
    async payload(url) {
      const number = Number(/\/levels\/(\d+)\//.exec(url)?.[1]);
      return number in nexts ? guidePayload(number, nexts[number]) : null;
    },
  };
  return { store, kept };
}

describe('the guides kept for reading offline', () => {
  it('keeps the guide being read, page and payload, with the next two found through each payload', async () => {
    const { store, kept } = fakeStore({ 3: 10, 10: 11, 11: 20, 20: undefined });
    expect(FOLLOWING_GUIDES).toBe(2);
    await expect(keepWithFollowing(guideRef(3), store)).resolves.toEqual([3, 10, 11]);
    expect(kept.filter((url) => url.startsWith('/levels'))).toEqual(['/levels/3', '/levels/3/_payload.json', '/levels/10', '/levels/10/_payload.json', '/levels/11', '/levels/11/_payload.json']);
  });

  it("keeps each kept guide's step pictures, one copy each (the smallest WebP)", async () => {
    const { store, kept } = fakeStore({ 3: 10, 10: undefined });
    await keepWithFollowing(guideRef(3), store);
    expect(kept.filter((url) => url.startsWith('/guide-images'))).toEqual(['/guide-images/aaaaaaaaaaa3-480.webp', '/guide-images/aaaaaaaaaa10-480.webp']);
    // Nothing else is a picture to keep: another page, a src that is not the site's.
    expect(pictureUrls({ routeId: 'level-missing', data: { kind: 'not-covered' } })).toEqual([]);
    expect(pictureUrls({ routeId: 'level', data: { kind: 'guide', level: { steps: [{ picture: { src: 'https://evil.example/x', widths: [480] } }] } } })).toEqual([]);
  });

  it('keeps a guide in puzzles with its steps, page and payload, and the pictures of its steps', async () => {
    const kept: string[] = [];
    const inPuzzles = { ...guidePayload(27), data: { kind: 'guide', level: { number: 27, title: 'Room 27', steps: [{ html: '' }] }, stepsOnRequest: true } };
    const store: GuideStore = {
      keep: async (url) => void kept.push(url),
      pictures: async (urls) => void kept.push(...urls),
      payload: async (url) => (url.endsWith('?steps=1') ? guidePayload(27) : inPuzzles),
    };
    await expect(keepWithFollowing(guideRef(27), store)).resolves.toEqual([27]);
    expect(kept).toEqual(['/levels/27', '/levels/27/_payload.json', '/levels/27?steps=1', '/levels/27/_payload.json?steps=1', '/guide-images/aaaaaaaaaa27-480.webp']);
  });

  it('stays in the language the guide was read in', async () => {
    const { store, kept } = fakeStore({ 3: 10, 10: 11 });
    await keepWithFollowing(guideRef(3, '/fr'), store, 1);
    expect(kept.filter((url) => url.includes('levels'))).toEqual(['/fr/levels/3', '/fr/levels/3/_payload.json', '/fr/levels/10', '/fr/levels/10/_payload.json']);
  });

  it('stops at the last guide, at a payload it cannot read, and at a next that does not move forward', async () => {
    await expect(keepWithFollowing(guideRef(20), fakeStore({ 20: undefined }).store)).resolves.toEqual([20]);
    await expect(keepWithFollowing(guideRef(3), fakeStore({}).store)).resolves.toEqual([3]);
    await expect(keepWithFollowing(guideRef(10), fakeStore({ 10: 3, 3: 10 }).store)).resolves.toEqual([10]);
  });

  it("reads the next guide from a guide page's payload only", () => {
    expect(nextGuideNumber(guidePayload(3, 10))).toBe(10);
    expect(nextGuideNumber(guidePayload(20))).toBeNull();
    expect(nextGuideNumber({ routeId: 'level-missing', data: { kind: 'not-covered', number: 15, next: { number: 20 } } })).toBeNull();
    expect(nextGuideNumber({ routeId: 'level', data: { kind: 'guide', next: { number: '11' } } })).toBeNull();
    expect(nextGuideNumber(null)).toBeNull();
  });

  it('lists a cached guide payload by number and title, with its page in its language', () => {
    expect(offlineGuide('https://guides.example/levels/10/_payload.json', guidePayload(10, 11))).toEqual({ number: 10, title: 'Room 10', href: '/levels/10' });
    expect(offlineGuide('https://guides.example/fr/levels/10/_payload.json', guidePayload(10))).toEqual({ number: 10, title: 'Room 10', href: '/fr/levels/10' });
    // Not a guide, or a payload that does not belong to its URL.
    expect(offlineGuide('https://guides.example/levels/15/_payload.json', { routeId: 'level-missing', data: { kind: 'not-covered', number: 15 } })).toBeNull();
    expect(offlineGuide('https://guides.example/levels/11/_payload.json', guidePayload(10))).toBeNull();
    expect(offlineGuide('https://guides.example/levels/_payload.json', guidePayload(10))).toBeNull();
  });

  it("reads the offline page's list from the build's own cache, in level order", async () => {
    const entries = new Map<string, Response>([
      ['https://guides.example/levels/11/_payload.json', Response.json(guidePayload(11))],
      ['https://guides.example/levels/11', new Response('<html></html>')],
      ['https://guides.example/levels/3/_payload.json', Response.json(guidePayload(3, 10))],
      ['https://guides.example/levels/15/_payload.json', Response.json({ routeId: 'level-missing', data: { kind: 'not-covered' } })],
    ]);
    const cache = { keys: async () => [...entries.keys()].map((url) => new Request(url)), match: async (request: Request) => entries.get(request.url)?.clone() };
    const storage = { has: async (name: string) => name === 'guides-b1', open: async () => cache } as unknown as CacheStorage;
    await expect(readOfflineGuides('b1', storage)).resolves.toEqual([
      { number: 3, title: 'Room 3', href: '/levels/3' },
      { number: 11, title: 'Room 11', href: '/levels/11' },
    ]);
    // Another build's cache is not this page's; no Cache Storage at all (an old browser, plain http).
    await expect(readOfflineGuides('b2', storage)).resolves.toEqual([]);
    await expect(readOfflineGuides('b1', undefined)).resolves.toEqual([]);
  });
});
