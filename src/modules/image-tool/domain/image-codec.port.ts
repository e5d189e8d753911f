import type { RgbaPlanes } from './conversions';
import type { InputFormat, ResultFormat } from './image-job';

/** What the header says, before any pixel is decoded. Sizes as displayed (EXIF orientation applied). */
export interface ImageHeader {
  format: InputFormat;
  width: number;
  height: number;
  /** An animated GIF or WebP: only its first frame is converted. */
  animated: boolean;
}

export interface DecodedInput {
  /** sRGB, 8-bit, alpha apart (null: opaque), at the size asked. */
  image: RgbaPlanes;
  header: ImageHeader;
  /** Decoded smaller than the original (to the plan's input size). */
  shrunk: boolean;
}

export interface EncodeOptions {
  format: ResultFormat;
  /** 1-100, for JPEG and WebP. */
  quality: number;
}

/**
 * Turns untrusted bytes into pixels, or refuses them (InvalidImageError): accepted formats only,
 * pixel and size limits checked from the header before decoding, EXIF orientation applied, colour
 * converted to sRGB from an embedded ICC profile, metadata dropped, alpha kept apart, the first
 * frame of an animation. Also encodes results: sRGB tagged, no EXIF.
 */
export abstract class ImageCodec {
  /**
   * Reads only the header: format and size, or InvalidImageError. Cheap enough for the web process,
   * which refuses a bad upload before any credit is held.
   */
  abstract probe(bytes: Uint8Array): Promise<ImageHeader>;
  /** The pixels at exactly `size` (the plan's input: the original size, or smaller, never larger). */
  abstract decode(bytes: Uint8Array, size: { width: number; height: number }): Promise<DecodedInput>;
  /**
   * The result as a file. A JPEG has no alpha: the pixels are flattened on white (`flattened`).
   */
  abstract encode(image: RgbaPlanes, options: EncodeOptions): Promise<{ bytes: Buffer; flattened: boolean }>;
  /** A small JPEG preview (longest side `side`, transparency on white), for the history list. */
  abstract thumbnail(image: RgbaPlanes, side: number): Promise<Buffer>;
}
