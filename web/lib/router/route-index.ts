import type { ComponentType } from 'react';
import type { PageRoute } from './page';

/** Lookups over a route table by route id, and the page components it has loaded. */
export function indexRoutes(routes: readonly PageRoute[]) {
  const byId = new Map(routes.map((route) => [route.id, route]));
  const loaded = new Map<string, ComponentType>();
  return {
    /** The colour mode a route asks to force, as written in its route (see forcedColorMode). */
    colorModeOf: (routeId: string) => byId.get(routeId)?.colorMode,
    /** Loads the component of a route (once); call before rendering that route. */
    async loadPage(routeId: string): Promise<void> {
      const route = byId.get(routeId);
      if (route && !loaded.has(routeId)) loaded.set(routeId, await route.load());
    },
    /** The component of a route loaded by loadPage, or undefined. */
    loadedPage: (routeId: string) => loaded.get(routeId),
  };
}
