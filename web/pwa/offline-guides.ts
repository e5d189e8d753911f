import { guideOf, guideRef, guidesCacheName, type GuideRef } from './caching-rules';

/** How many guides after the one being read are kept too: the next two, as the issue asks. */
export const FOLLOWING_GUIDES = 2;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** A guide page's payload (web/features/levels/level.loader.ts: routeId 'level', data LevelPageData of kind 'guide'), else null. */
function guideData(payload: unknown): Json | null {
  if (!isObject(payload) || payload.routeId !== 'level' || !isObject(payload.data) || payload.data.kind !== 'guide') return null;
  return payload.data;
}

/** Whether a guide page's payload holds its steps back (LevelPageData's stepsOnRequest: they come with `?steps=1`). */
const stepsOnRequest = (payload: unknown) => guideData(payload)?.stepsOnRequest === true;

/** The next guide after a guide page's payload (its `next`, the guide page's "Next" link), or null. */
export function nextGuideNumber(payload: unknown): number | null {
  const next = guideData(payload)?.next;
  return isObject(next) && Number.isSafeInteger(next.number) && (next.number as number) > 0 ? (next.number as number) : null;
}

/**
 * The step pictures of a guide page's payload, one copy each (the smallest WebP: any browser shows
 * it, and offline it stands in for whichever copy the page asks), so a guide kept offline keeps its
 * pictures. Empty for anything else.
 */
export function pictureUrls(payload: unknown): string[] {
  const steps = guideData(payload)?.level;
  if (!isObject(steps) || !Array.isArray(steps.steps)) return [];
  return steps.steps.flatMap((step: unknown) => {
    const picture = isObject(step) && isObject(step.picture) ? step.picture : null;
    if (!picture || typeof picture.src !== 'string' || !Array.isArray(picture.widths) || !Number.isInteger(picture.widths[0])) return [];
    return /^\/guide-images\/[0-9a-f]{12}$/.test(picture.src) ? [`${picture.src}-${picture.widths[0] as number}.webp`] : [];
  });
}

/** How the walk below reads and fills a cache: kept by the worker through its guide strategy. */
export interface GuideStore {
  /** Fetches a URL into the cache unless it is there already; never throws. */
  keep(url: string): Promise<void>;
  /** The cached JSON of a payload URL, or null. */
  payload(url: string): Promise<unknown>;
  /** Keeps a guide's pictures (pictureUrls) unless they are there; never throws. */
  pictures(urls: string[]): Promise<void>;
}

/**
 * Makes a guide readable offline and the next `count` after it: each guide's page and payload
 * (whichever the reader's own request did not bring), with its steps when it holds them back, and its step pictures, the next one found through the payload's
 * `next`, a number always higher than the last (a loop in the data cannot loop here).
 * Resolves with the guides walked, in order.
 */
export async function keepWithFollowing(start: GuideRef, store: GuideStore, count = FOLLOWING_GUIDES): Promise<number[]> {
  const walked: number[] = [];
  for (let guide: GuideRef | null = start; guide; ) {
    await Promise.all([store.keep(guide.page), store.keep(guide.payload)]);
    walked.push(guide.number);
    const payload = await store.payload(guide.payload);
    // A guide in puzzles holds its steps back: its page with them, and their pictures, are kept too.
    if (stepsOnRequest(payload)) {
      await Promise.all([store.keep(guide.stepsPage), store.keep(guide.stepsPayload)]);
      await store.pictures(pictureUrls(await store.payload(guide.stepsPayload)));
    } else await store.pictures(pictureUrls(payload));
    if (walked.length > count) break;
    const next = nextGuideNumber(payload);
    guide = next !== null && next > guide.number ? guideRef(next, guide.prefix) : null;
  }
  return walked;
}

export interface OfflineGuide {
  number: number;
  title: string;
  /** The guide's page, in the language it was read in. */
  href: string;
}

/** A cached guide payload as the offline page lists it, or null (a level with no guide, another page). */
export function offlineGuide(url: string, payload: unknown): OfflineGuide | null {
  const ref = guideOf(new URL(url, 'http://localhost').pathname);
  const level = guideData(payload)?.level;
  if (!ref || !isObject(level) || typeof level.title !== 'string' || level.number !== ref.number) return null;
  return { number: ref.number, title: level.title, href: ref.page };
}

/**
 * The guides this build's worker holds for reading offline, by level number: read from its cache,
 * in the browser (the offline page). Empty where there is no Cache Storage or nothing kept yet.
 */
export async function readOfflineGuides(buildId: string, storage: CacheStorage | undefined = globalThis.caches): Promise<OfflineGuide[]> {
  if (!storage || !(await storage.has(guidesCacheName(buildId)))) return [];
  const cache = await storage.open(guidesCacheName(buildId));
  const guides = new Map<number, OfflineGuide>();
  for (const request of await cache.keys()) {
    if (!request.url.endsWith('/_payload.json')) continue;
    const payload: unknown = await cache
      .match(request)
      .then((response) => response?.json())
      .catch(() => null);
    const guide = offlineGuide(request.url, payload);
    if (guide && !guides.has(guide.number)) guides.set(guide.number, guide);
  }
  return [...guides.values()].sort((a, b) => a.number - b.number);
}
