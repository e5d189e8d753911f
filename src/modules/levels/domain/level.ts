import type { Difficulty, GuidePuzzle, GuideStep, Walkthrough } from 'src/contracts/levels';

/** One level's guide as stored: imported from a content file, rendered and sanitised. */
export class Level {
  number!: number;
  title!: string;
  difficulty!: Difficulty;
  referenceSeconds!: number;
  unlocksAt?: number;
  introHtml!: string;
  tips!: string[];
  hints!: string[];
  steps!: GuideStep[];
  /** The sub-puzzles, each with its ladder and its share of `steps`; none for a one-ladder guide. */
  puzzles?: GuidePuzzle[];
  video?: Walkthrough;
  gameVersion!: string;
  /** YYYY-MM-DD */
  verifiedOn!: string;
  /** Plain text of the guide, for full-text search. */
  searchText!: string;
  /** sha256 of the source file: an unchanged file is not written again. */
  sourceHash!: string;
  published!: boolean;
  createdAt!: Date;
  updatedAt!: Date;
}

/** A parsed content file, before it meets the database. */
export type LevelGuide = Omit<Level, 'published' | 'createdAt' | 'updatedAt'>;

/** A step picture's source, to be made into its responsive copies (`${hash}-${width}.avif|webp`). */
export interface PictureSource {
  /** sha256 of the source bytes and the copy settings, 12 hex digits: the copies' immutable name. */
  hash: string;
  bytes: Buffer;
  widths: number[];
}
