import { HintLadder } from 'web/components/hint-ladder';
import { GuideExtras } from 'web/features/levels/guide-extras';
import { GuideSteps } from 'web/features/levels/guide-steps';
import { PuzzlePicker } from 'web/features/levels/puzzle-ladders';

/**
 * The level page's parts that work as plain HTML until hydrated (the hint ladders, the puzzles' <details>, the
 * folded steps with their pictures, the extras), rendered directly on the server; undefined in the
 * browser (the client build empties *.server.ts modules), where the page takes them lazily
 * (folded-parts.tsx): their code is off the page's first-load path, and hydration keeps the
 * server's HTML until it arrives.
 */
const foldedParts:
  | { GuideSteps: typeof GuideSteps; GuideExtras: typeof GuideExtras; PuzzlePicker: typeof PuzzlePicker; HintLadder: typeof HintLadder }
  | undefined = {
  GuideSteps,
  GuideExtras,
  PuzzlePicker,
  HintLadder,
};
export default foldedParts;
