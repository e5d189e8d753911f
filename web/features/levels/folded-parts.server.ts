import { HintLadder } from 'web/components/hint-ladder';
import { ProgressMarks } from 'web/components/progress-marks';
import { GuideExtras } from 'web/features/levels/guide-extras';
import { GuideSteps } from 'web/features/levels/guide-steps';
import { PuzzlePicker } from 'web/features/levels/puzzle-ladders';

/**
 * The level page's parts that work as plain HTML until hydrated (the hint ladders, the puzzles' <details>, "Solved it" / "Still stuck", the
 * folded steps with their pictures, the extras), rendered directly on the server; undefined in the
 * browser (the client build empties *.server.ts modules), where the page takes them lazily
 * (folded-parts.tsx): their code is off the page's first-load path, and hydration keeps the
 * server's HTML until it arrives.
 */
const foldedParts:
  | { GuideSteps: typeof GuideSteps; GuideExtras: typeof GuideExtras; PuzzlePicker: typeof PuzzlePicker; HintLadder: typeof HintLadder; ProgressMarks: typeof ProgressMarks }
  | undefined = {
  GuideSteps,
  GuideExtras,
  PuzzlePicker,
  HintLadder,
  ProgressMarks,
};
export default foldedParts;
