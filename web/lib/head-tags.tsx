import { createContext, createElement, startTransition, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Helmet as HelmetComponent } from 'react-helmet-async';

type Helmet = typeof HelmetComponent;

/**
 * What writes a page's head tags: react-helmet-async's Helmet (with React 19 it renders the tags
 * and React hoists them into <head>; it needs no provider). The server provides it
 * (web/entry-server.tsx). The browser's first render does without it: that page's tags are the
 * server's, already in <head>. BrowserHeadTags loads it once the page has hydrated and lets it
 * write the same tags, which replace the server's, so that the next page's replace them in turn.
 * Helmet and its helpers are 5 KB gzipped the first load does not carry.
 */
export const HelmetContext = createContext<Helmet | null>(null);

/** Tags for the document's <head> (title, meta, link), written through Helmet; nothing until the browser has it. */
export function HeadTags({ children }: { children: ReactNode }) {
  const helmet = useContext(HelmetContext);
  // The one Helmet component, from the context: never created during render.
  return helmet ? createElement(helmet, null, children) : null;
}

/**
 * The browser's Helmet: loaded after hydration. `ready` resolves once the page on screen writes its
 * tags through it (a navigation waits for that, or the old page's tags would stay in <head>), and
 * rejects when its chunk cannot load (as a page chunk's failure: the router reloads).
 */
export function browserHeadTags() {
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Awaited by navigations; a failure before any is not an unhandled rejection.
  ready.catch(() => undefined);
  function BrowserHeadTags({ children }: { children: ReactNode }) {
    const [helmet, setHelmet] = useState<Helmet | null>(null);
    const serverTags = useRef<Element[]>([]);
    useEffect(() => {
      import('react-helmet-async').then((module) => {
        serverTags.current = [...document.head.children];
        // A transition: a context change reaches every part of the page still waiting for its chunk
        // (web/features/levels/folded-parts.tsx), and an urgent one would make React render them
        // afresh, closing what the reader had opened. A transition waits until they have hydrated.
        startTransition(() => setHelmet(() => module.Helmet));
      }, settle.reject);
    }, []);
    // In the commit that wrote the page's tags through Helmet, before the browser paints: React
    // writes new elements (it adopts server tags only while hydrating), so each server copy goes.
    useLayoutEffect(() => {
      if (!helmet) return;
      const written = [...document.head.children].filter((element) => !serverTags.current.includes(element));
      for (const element of written) serverTags.current.find((old) => old.isConnected && old.isEqualNode(element))?.remove();
      settle.resolve();
    }, [helmet]);
    return <HelmetContext value={helmet}>{children}</HelmetContext>;
  }
  return { BrowserHeadTags, ready };
}
