import { ImageCodec, type DecodedInput, type EncodeOptions, type ImageHeader } from '../domain/image-codec.port';
import type { RgbaPlanes } from '../domain/conversions';
import { InvalidImageError } from '../domain/image-tool.errors';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A "PNG" the fake codec reads: the PNG signature, then its width and height (the real codec would refuse it). */
export function fakePng(width = 64, height = 48): Buffer {
  const size = Buffer.alloc(8);
  size.writeUInt32BE(width, 0);
  size.writeUInt32BE(height, 4);
  return Buffer.concat([PNG_SIGNATURE, size]);
}

/**
 * The image codec without pixels, for specs: knows a PNG by its signature (anything else is
 * refused as the real one refuses it) and its size from fakePng's header; decodes to blank pixels
 * of the size asked, and encodes an image as fakePng of its size. SharpImageCodec has its own spec.
 */
export class FakeImageCodec extends ImageCodec {
  /** When set, the size every probe reports, whatever the bytes say (a large upload). */
  size?: { width: number; height: number };

  async probe(bytes: Uint8Array): Promise<ImageHeader> {
    const buffer = Buffer.from(bytes);
    if (!buffer.subarray(0, 8).equals(PNG_SIGNATURE)) throw new InvalidImageError('Please upload a JPEG, PNG, WebP or GIF image');
    const stated = buffer.length >= 16 ? { width: buffer.readUInt32BE(8), height: buffer.readUInt32BE(12) } : { width: 64, height: 48 };
    return { format: 'png', ...(this.size ?? stated), animated: false };
  }

  async decode(bytes: Uint8Array, size: { width: number; height: number }): Promise<DecodedInput> {
    const header = await this.probe(bytes);
    const image = { data: new Uint8Array(size.width * size.height * 3), width: size.width, height: size.height, alpha: null };
    return { image, header, shrunk: size.width < header.width };
  }

  async encode(image: RgbaPlanes, options: EncodeOptions): Promise<{ bytes: Buffer; flattened: boolean }> {
    return { bytes: fakePng(image.width, image.height), flattened: options.format === 'jpeg' && image.alpha !== null };
  }

  async thumbnail(image: RgbaPlanes, side: number): Promise<Buffer> {
    const scale = Math.min(1, side / Math.max(image.width, image.height));
    return fakePng(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
  }
}
