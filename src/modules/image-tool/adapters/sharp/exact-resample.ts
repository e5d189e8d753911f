import sharp from 'sharp';
import type { RgbImage } from 'src/modules/image-tool/domain/conversions';
import { alignedSource, resampleAligned } from 'src/modules/image-tool/domain/resample';

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

/**
 * The proof of "no shift" the bench and the spec run: a ramp of `from` px (slope 2, so bytes are
 * exact) resampled to `to` px along x or y by resampleRgbExact, and its mean distance from the
 * aligned map, in input pixels, away from the edges (a half-pixel shift reads 0.5).
 */
export async function measureResampleShift(from: number, to: number, axis: 'x' | 'y' = 'x'): Promise<number> {
  if (from > 118) throw new RangeError(`A ramp of ${from} px does not fit in bytes: measure at most 118 px (the same ratio)`);
  const across = 8;
  const [width, height] = axis === 'x' ? [from, across] : [across, from];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.fill(20 + 2 * (axis === 'x' ? x : y), (y * width + x) * 3, (y * width + x + 1) * 3);
  const out = await resampleRgbExact({ data, width, height }, axis === 'x' ? to : across, axis === 'x' ? across : to);
  let total = 0;
  let n = 0;
  for (let X = 8; X < to - 8; X++) {
    const index = axis === 'x' ? ((across / 2) * to + X) * 3 : (X * across + across / 2) * 3;
    total += (out.data[index]! - (20 + 2 * alignedSource(X, from, to))) / 2;
    n++;
  }
  return total / n;
}
