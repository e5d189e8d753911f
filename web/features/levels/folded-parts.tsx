import { lazy, memo, Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import serverParts from 'web/features/levels/folded-parts.server';

type Parts = NonNullable<typeof serverParts>;

/** Whether the parts' chunk has come: until then, a tap on a part's button is React's to miss. */
let chunkArrived = false;
const load = () =>
  import('web/features/levels/folded-parts.client').then((parts) => {
    chunkArrived = true;
    return parts;
  });

/**
 * Taps on a part's buttons ("Show the first hint") before the parts' chunk has come, the last per
 * part, as the button's place among the part's buttons. React cannot hydrate a part without its code
 * and does not replay a click it could not deliver; a reader on a slow connection who tapped once
 * and saw nothing would have to tap again. The tap is clicked again once the part is on screen with
 * its code (TapReplay): on the same button if React kept the server's HTML, on its copy otherwise;
 * not on another page the reader went on to meanwhile, whose parts may have the same ids.
 */
const tapsBeforeChunk = new Map<string, { button: number; page: string }>();
if (typeof document !== 'undefined') {
  document.addEventListener(
    'click',
    (event) => {
      if (chunkArrived || !(event.target instanceof Element)) return;
      const button = event.target.closest('[data-part] button[type="button"]');
      const part = button?.closest('[data-part]');
      if (!button || !part) return;
      const buttons = [...part.querySelectorAll('button[type="button"]')];
      tapsBeforeChunk.set(part.getAttribute('data-part')!, { button: buttons.indexOf(button), page: location.pathname });
    },
    true,
  );
}

/** Clicks again, once its part has mounted with its code, the tap its part got before the chunk came. */
function TapReplay({ part }: { part: string }) {
  useEffect(() => {
    const tap = tapsBeforeChunk.get(part);
    tapsBeforeChunk.delete(part);
    if (tap?.page !== location.pathname) return;
    document.querySelector(`[data-part="${CSS.escape(part)}"]`)?.querySelectorAll<HTMLButtonElement>('button[type="button"]')[tap.button]?.click();
  }, [part]);
  return null;
}

/**
 * The server's HTML of a part as the browser first parsed it, read while the part hydrates: what
 * the part shows if React has to render it on the client before its chunk arrives (an update above
 * an unhydrated boundary, such as the session arriving, makes React drop the server's HTML and show
 * the fallback). Without it the fallback is nothing: "Where are you stuck?" vanished until the
 * chunk came, and the page below it jumped (a layout shift of 0.12 on a phone).
 */
function useServerHtml(id: string): string | undefined {
  // Read once, at the first (hydrating) render, before React may replace the server's HTML.
  const [html] = useState(() => (typeof document === 'undefined' ? undefined : (document.querySelector(`[data-part="${CSS.escape(id)}"]`)?.innerHTML ?? '')));
  return html;
}

/**
 * A part of the level page that works as plain HTML until hydrated: direct on the server, a chunk
 * of its own in the browser (one for all of them), so its code is off the first-load path; React
 * keeps the server's HTML of the Suspense boundary until the chunk arrives, and the fallback is
 * that same HTML when React cannot keep it.
 */
function part<P extends object>(pick: (parts: Parts) => ComponentType<P>) {
  const Lazy: ComponentType<P> = lazy(() => load().then((m) => ({ default: pick(m) })));
  const Direct = serverParts && pick(serverParts);
  // Memoised: the page re-renders when a reader opens a puzzle or the session arrives, and a part
  // still waiting for its chunk that received new props would be rendered afresh from the fallback,
  // closing the puzzle just opened. The page passes the same props objects (level.page.tsx).
  return memo(function Part(props: P) {
    const id = useId();
    const serverHtml = useServerHtml(id);
    const Component = Direct ?? Lazy;
    return (
      <div className="contents" data-part={id}>
        {/* The copy's buttons wait for the chunk (aria-busy, as other parts still loading say); its <details> work. */}
        <Suspense fallback={serverHtml ? <div className="contents" aria-busy="true" dangerouslySetInnerHTML={{ __html: serverHtml }} /> : null}>
          <Component {...props} />
          <TapReplay part={id} />
        </Suspense>
      </div>
    );
  });
}

/** The guide's one ladder (a guide without puzzles); hints remembered show before hydration (HINTS_REVEAL_SCRIPT). */
export const FoldedLadder = part((parts) => parts.HintLadder);
/** "Where are you stuck?": its <details> open and close without script. */
export const FoldedPicker = part((parts) => parts.PuzzlePicker);
/** The steps, in the folded solution. */
export const FoldedSteps = part((parts) => parts.GuideSteps);
/** The extras, folded after the main escape. */
export const FoldedExtras = part((parts) => parts.GuideExtras);
