import type { PictureSource } from './level';

/** One responsive copy of a step picture: `${hash}-${width}.${avif|webp}`. */
export interface PictureCopy {
  file: string;
  hash: string;
  contentType: 'image/avif' | 'image/webp';
  bytes: Buffer;
}

/** Makes a step picture's responsive copies (AVIF and WebP at each of its widths). */
export abstract class PictureEncoder {
  abstract encode(source: PictureSource): Promise<PictureCopy[]>;
}

/** The copies the site serves, by their immutable file name. */
export abstract class GuidePictureStore {
  /** The hashes among `hashes` that have no copies yet. */
  abstract missing(hashes: string[]): Promise<string[]>;
  abstract save(copies: PictureCopy[]): Promise<void>;
  abstract find(file: string): Promise<Pick<PictureCopy, 'contentType' | 'bytes'> | null>;
  /** Deletes the copies of pictures no guide names any more. */
  abstract keepOnly(hashes: string[]): Promise<number>;
}
