/** The level page's folded parts as one chunk, loaded by folded-parts.tsx in the browser. */
export { GuideExtras } from 'web/features/levels/guide-extras';
export { GuideSteps } from 'web/features/levels/guide-steps';
export { PuzzlePicker } from 'web/features/levels/puzzle-ladders';
export { HintLadder } from 'web/components/hint-ladder';
