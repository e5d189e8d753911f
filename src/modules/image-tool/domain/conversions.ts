import type { ImageNoiseLevel } from 'src/contracts/images';

/**
 * The conversions the image tool offers. Each costs 1 credit. AI upscaling runs a waifu2x model
 * (ONNX Runtime, CPU) per pass, each pass doubling the size (the clean-up runs one 1x denoising
 * pass), then resamples once to the exact size; the classic styles run on sharp. Sizes and bounds
 * are `planImageSize` (src/contracts/images.ts). Each AI conversion keeps a measured gain over
 * bicubic (`npm run bench:quality`).
 */
export const CONVERSIONS = {
  'ai-2x': { kind: 'ai', arch: 'cunet' },
  'ai-2x-fast': { kind: 'ai', arch: 'upconv7' },
  'ai-4x': { kind: 'ai', arch: 'cunet' },
  sketch: { kind: 'classic' },
  cartoon: { kind: 'classic' },
  enhance: { kind: 'classic' },
} as const satisfies Record<string, { kind: 'ai'; arch: Waifu2xArch } | { kind: 'classic' }>;

export type ConversionId = keyof typeof CONVERSIONS;
export const CONVERSION_IDS = Object.keys(CONVERSIONS) as ConversionId[];

/** The two waifu2x networks: CUnet (the best), upconv_7 (about twice as fast). */
export type Waifu2xArch = 'cunet' | 'upconv7';

/**
 * One model file of dist/models (scripts/build-models.mjs): `waifu2x-<arch>[-noise<N>]-x<scale>`.
 * waifu2x's noise levels 0-3; upconv_7 has no 1x models (its clean-up runs on CUnet).
 */
export type AiModelId = `waifu2x-${Waifu2xArch}${'' | `-noise${0 | 1 | 2 | 3}`}-x${1 | 2}`;

/** waifu2x's denoising level for each of ours (none: the plain scale model). */
export const NOISE_MODEL_LEVEL: Record<ImageNoiseLevel, 0 | 1 | 2 | 3 | null> = { none: null, low: 1, medium: 2, high: 3 };

/**
 * The models an AI conversion runs, one per pass: denoising (when asked) happens once, in the first
 * pass, as waifu2x's own programs do; passes 0 is the 1x clean-up, which always denoises.
 */
export function modelsFor(arch: Waifu2xArch, passes: 0 | 1 | 2, noise: ImageNoiseLevel): AiModelId[] {
  const level = NOISE_MODEL_LEVEL[noise];
  if (passes === 0) return [`waifu2x-cunet-noise${level ?? NOISE_MODEL_LEVEL.low!}-x1`];
  const first: AiModelId = level === null ? `waifu2x-${arch}-x2` : `waifu2x-${arch}-noise${level}-x2`;
  return passes === 1 ? [first] : [first, `waifu2x-${arch}-x2`];
}

/** Decoded pixels: 8-bit RGB, row-major, no alpha (`data.length === width * height * 3`). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Decoded pixels with their alpha channel kept apart (null: opaque), `alpha.length === width * height`. */
export interface RgbaPlanes extends RgbImage {
  alpha: Uint8Array | null;
}
