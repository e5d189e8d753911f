import sharp from 'sharp';
import type { RgbImage } from 'src/modules/image-tool/domain/conversions';
import { resampleAligned } from 'src/modules/image-tool/domain/resample';

/**
 * The one resample of a conversion's colour to the exact result size, aligned (output pixel X
 * samples input (X + 0.5) / scale - 0.5). Shrinking (the network's 2^passes x output down to the
 * plan's result, always the case) goes through sharp's Lanczos3 resize, libvips' reduce, which is
 * centre-aligned to within 0.05 px (`exact-resample.spec.ts` measures it on a ramp) and native:
 * 5461x4096 to 4096x3072 in well under a second. Enlarging, sharp's resize shifts the picture half
 * an output pixel, so anything else goes through the plain TypeScript resampler. The bench calls
 * this to prove "no shift".
 */
export async function resampleRgbExact(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (image.width === width && image.height === height) return image;
  if (width > image.width || height > image.height) return { data: resampleAligned(image.data, image.width, image.height, 3, width, height), width, height };
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height || info.channels !== 3) throw new Error(`sharp resampled to ${info.width}x${info.height}x${info.channels}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}

/** The alpha plane from the input's size to the result's (an enlargement, mostly): the TypeScript resampler, aligned. */
export function resampleAlphaExact(alpha: Uint8Array, from: { width: number; height: number }, width: number, height: number): Uint8Array {
  return resampleAligned(alpha, from.width, from.height, 1, width, height);
}
