import { lazy, Suspense, type ComponentType } from 'react';
import serverParts from 'web/features/levels/folded-parts.server';

type Parts = NonNullable<typeof serverParts>;
const load = () => import('web/features/levels/folded-parts.client');

/**
 * A part of the level page that works as plain HTML until hydrated: direct on the server, a chunk
 * of its own in the browser (one for all of them), so its code is off the first-load path; React
 * keeps the server's HTML of the Suspense boundary until the chunk arrives.
 */
function part<P extends object>(pick: (parts: Parts) => ComponentType<P>) {
  const Lazy: ComponentType<P> = lazy(() => load().then((m) => ({ default: pick(m) })));
  const Direct = serverParts && pick(serverParts);
  return function Part(props: P) {
    const Component = Direct ?? Lazy;
    return (
      <Suspense>
        <Component {...props} />
      </Suspense>
    );
  };
}

/** The guide's one ladder (a guide without puzzles); hints remembered show before hydration (HINTS_REVEAL_SCRIPT). */
export const FoldedLadder = part((parts) => parts.HintLadder);
/** "Where are you stuck?": its <details> open and close without script. */
export const FoldedPicker = part((parts) => parts.PuzzlePicker);
/** The steps, in the folded solution. */
export const FoldedSteps = part((parts) => parts.GuideSteps);
/** The extras, folded after the main escape. */
export const FoldedExtras = part((parts) => parts.GuideExtras);
