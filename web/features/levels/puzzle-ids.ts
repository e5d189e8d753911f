/** Element ids of a guide's puzzles, shared by the page and its lazily loaded parts (a module of its own, so the page does not pull those parts in). */

/** id of the level page's step-by-step solution (a <details>; a link to `?steps=1` while a guide in puzzles holds its steps back). */
export const STEPS_ID = 'solution-steps';
/** id of "Where are you stuck?": "Still stuck" scrolls there while no puzzle is open. */
export const PUZZLES_ID = 'where-stuck';
export const puzzleId = (puzzle: string) => `puzzle-${puzzle}`;
/** Where a puzzle's steps start (a heading in the solution; an extra's "Show the steps"). */
export const stepsId = (puzzle: string) => `steps-${puzzle}`;
