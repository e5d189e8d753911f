import type { Difficulty } from 'src/contracts/levels';

/** Social preview images are 1200x660 (spec). */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 660;

/** What a level's preview shows: never a spoiler, just the number, difficulty and game. */
export interface PreviewCard {
  heading: string;
  difficulty?: Difficulty;
  gameName: string;
  siteName: string;
}

export abstract class PreviewImageRenderer {
  /** A PNG of PREVIEW_WIDTH x PREVIEW_HEIGHT. */
  abstract render(card: PreviewCard): Promise<Buffer>;
}
