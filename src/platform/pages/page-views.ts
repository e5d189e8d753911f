import { Injectable } from '@nestjs/common';

/** Hears that a reader was shown a page of its route, with the route's parameters (`{ id: '27' }`). */
export type PageViewListener = (params: Readonly<Record<string, string>>) => void;

/**
 * Page views by route id: a module that counts views of its pages listens for its route
 * (guide-insights for 'level'); the SSR bridge tells it after each response that showed a page to a
 * reader, from the request's one match (no URL is parsed again). Listeners run after the response,
 * on every page request: keep them to a map update.
 */
@Injectable()
export class PageViews {
  private readonly listeners = new Map<string, PageViewListener[]>();

  on(routeId: string, listener: PageViewListener): void {
    this.listeners.set(routeId, [...(this.listeners.get(routeId) ?? []), listener]);
  }

  /** Whether anyone listens for this route: the bridge checks a response only then. */
  watched(routeId: string): boolean {
    return this.listeners.has(routeId);
  }

  viewed(routeId: string, params: Readonly<Record<string, string>>): void {
    for (const listener of this.listeners.get(routeId) ?? []) listener(params);
  }
}
