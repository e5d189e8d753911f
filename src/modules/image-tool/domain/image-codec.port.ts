import type { RgbImage } from './conversions';

export interface DecodedInput {
  image: RgbImage;
  /** Before any shrinking. */
  originalWidth: number;
  originalHeight: number;
  /** The input was larger than the conversion takes and was shrunk to fit `maxSide`. */
  shrunk: boolean;
  format: 'jpeg' | 'png' | 'webp' | 'gif';
}

/**
 * Turns untrusted bytes into pixels, or refuses them (InvalidImageError): accepted formats only,
 * pixel and size limits checked from the header before decoding, EXIF orientation applied,
 * metadata dropped, alpha flattened, longest side shrunk to `maxSide`. Also encodes results.
 */
export abstract class ImageCodec {
  /**
   * Reads only the header: format and size, or InvalidImageError. Cheap enough for the web process,
   * which refuses a bad upload before any credit is held.
   */
  abstract probe(bytes: Uint8Array): Promise<{ format: DecodedInput['format']; width: number; height: number }>;
  abstract decode(bytes: Uint8Array, maxSide: number): Promise<DecodedInput>;
  /** PNG of the pixels. */
  abstract encodePng(image: RgbImage): Promise<Buffer>;
  /** A small JPEG preview (longest side `side`), for the history list. */
  abstract thumbnail(image: RgbImage, side: number): Promise<Buffer>;
}
