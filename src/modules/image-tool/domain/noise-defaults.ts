import type { ImageNoiseLevel } from 'src/contracts/images';

/**
 * The denoising an AI conversion runs when the user leaves noise on `auto`: JPEG inputs carry
 * compression artefacts the models would otherwise enlarge. Chosen by `npm run bench:quality`'s noise
 * table (PSNR against the clean original of JPEG inputs at quality 60, 75 and 90, ai-2x; the figures
 * are in docs/benchmarks.md): the level with the best mean over the three qualities. Measured: low
 * 34.71 dB, medium 34.56, none 34.11, high 33.94; low is best at each quality (q60 by 0.08 dB over
 * medium), and at q90 it still beats none, where medium and high already lose.
 */
export const DEFAULT_NOISE_FOR_JPEG: ImageNoiseLevel = 'low';

/** PNG, WebP and the rest: no denoising unless asked (a lossless input has no artefacts to remove). */
export const DEFAULT_NOISE_OTHERWISE: ImageNoiseLevel = 'none';

/** What `auto` means for an input: the JPEG default for JPEG inputs, none otherwise. */
export function defaultNoise(inputIsJpeg: boolean): ImageNoiseLevel {
  return inputIsJpeg ? DEFAULT_NOISE_FOR_JPEG : DEFAULT_NOISE_OTHERWISE;
}
