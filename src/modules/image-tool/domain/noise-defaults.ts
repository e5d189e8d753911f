import type { ImageNoiseLevel } from 'src/contracts/images';

/** The denoising `noise: 'auto'` picks for a JPEG input (compression artefacts); other formats get none. */
export const DEFAULT_NOISE_FOR_JPEG: ImageNoiseLevel = 'low';
