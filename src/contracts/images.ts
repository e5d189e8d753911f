/**
 * The image tool as the browser and the API see it. Every conversion costs 1 credit, held when the
 * job is accepted, taken when it succeeds, given back when it fails.
 */
export const IMAGE_CONVERSIONS = ['ai-2x', 'ai-2x-fast', 'ai-4x', 'sketch', 'cartoon', 'enhance'] as const;
export type ImageConversion = (typeof IMAGE_CONVERSIONS)[number];
export const DEFAULT_IMAGE_CONVERSION: ImageConversion = 'ai-2x';

/**
 * What each conversion takes: the longest input side it runs on as it is (larger inputs are shrunk
 * to fit, never more), and the scale it enlarges by unless the user asks for another (AI only).
 * AI enlargements run the network at its native 2x (twice past 2x) and resample once to the exact
 * size; an AI result's long side is at most IMAGE_MAX_RESULT_SIDE. `maxInputSide` of the AI
 * conversions is for their default scale: see `planImageSize` for the others.
 */
export const IMAGE_CONVERSION_LIMITS: Record<ImageConversion, { maxInputSide: number; scale: number }> = {
  'ai-2x': { maxInputSide: 2048, scale: 2 },
  'ai-2x-fast': { maxInputSide: 2048, scale: 2 },
  'ai-4x': { maxInputSide: 1024, scale: 4 },
  sketch: { maxInputSide: 4096, scale: 1 },
  cartoon: { maxInputSide: 4096, scale: 1 },
  enhance: { maxInputSide: 2048, scale: 2 },
};

export const AI_CONVERSIONS = ['ai-2x', 'ai-2x-fast', 'ai-4x'] as const satisfies readonly ImageConversion[];
export const isAiConversion = (conversion: ImageConversion): conversion is (typeof AI_CONVERSIONS)[number] => (AI_CONVERSIONS as readonly string[]).includes(conversion);

/** The sizes an AI conversion offers: 1 is the same-size clean-up (denoise, no enlargement). */
export const IMAGE_SCALES = [1, 1.5, 2, 3, 4] as const;
export type ImageScale = (typeof IMAGE_SCALES)[number];
/** Noise reduction of the AI conversions (waifu2x's denoising models); `auto`: the default for the input's format. */
export const IMAGE_NOISE_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type ImageNoiseLevel = (typeof IMAGE_NOISE_LEVELS)[number];
/** The result's format; `auto`: JPEG stays JPEG, WebP stays WebP, PNG and GIF give PNG. */
export const IMAGE_OUTPUT_FORMATS = ['auto', 'png', 'webp', 'jpeg'] as const;
export type ImageOutputFormat = (typeof IMAGE_OUTPUT_FORMATS)[number];
export const IMAGE_DEFAULT_QUALITY = 90;

/** Above this long side an enlargement is capped; network inputs past 2x (3x, 4x) are bounded at a quarter of it. */
export const IMAGE_MAX_RESULT_SIDE = 4096;
/** The widest exact width the user may ask for (the result's bound, named for the form). @alias */
export const IMAGE_MAX_EXACT_WIDTH = IMAGE_MAX_RESULT_SIDE;

/**
 * What the user chose besides the conversion. `scale` and `width` are exclusive (neither: the
 * conversion's own scale); both, and `noise`, are for AI conversions only. `quality` is for JPEG
 * and WebP results (1-100).
 */
export interface ImageOptions {
  scale: ImageScale | null;
  width: number | null;
  noise: ImageNoiseLevel | 'auto';
  format: ImageOutputFormat;
  quality: number;
}
export const DEFAULT_IMAGE_OPTIONS: ImageOptions = { scale: null, width: null, noise: 'auto', format: 'auto', quality: IMAGE_DEFAULT_QUALITY };

/** How a conversion of a `width` x `height` image goes, known before it runs (the page shows it before Convert). */
export interface ImageSizePlan {
  /** What the conversion runs on: the input as it is, or shrunk to the conversion's bound (`shrunk`). */
  input: { width: number; height: number; shrunk: boolean };
  /** Doublings by the network: 0 for the clean-up and the classic styles (their own scale), 1 up to 2x, 2 past it. */
  passes: 0 | 1 | 2;
  /** The result's exact size (after the one resample to it). */
  result: { width: number; height: number };
  /** The result is smaller than the input on a side (an enlargement of an input past IMAGE_MAX_RESULT_SIDE). */
  smaller: boolean;
}

const fit = (width: number, height: number, side: number) => {
  const long = Math.max(width, height);
  if (long <= side) return { width, height };
  const ratio = side / long;
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
};

/**
 * The one size rule, shared by the page (before Convert), the API and the worker. AI: the result
 * is `scale` x the input (or the exact `width`, height in proportion), its long side capped at
 * IMAGE_MAX_RESULT_SIDE; the network runs on the input shrunk only to 2048 px (up to 2x) or 1024 px
 * (past 2x), and never on more pixels than the result has; scale 1 is the clean-up, at the input's
 * size. Classic styles: their own scale within their bound. So for any input up to 4096 px on its
 * long side, an enlargement is never smaller than the input on either side.
 */
export function planImageSize(width: number, height: number, conversion: ImageConversion, options: Pick<ImageOptions, 'scale' | 'width'> = DEFAULT_IMAGE_OPTIONS): ImageSizePlan {
  const limits = IMAGE_CONVERSION_LIMITS[conversion];
  if (!isAiConversion(conversion)) {
    const input = fit(width, height, limits.maxInputSide);
    const result = { width: input.width * limits.scale, height: input.height * limits.scale };
    return { input: { ...input, shrunk: input.width !== width }, passes: 0, result, smaller: result.width < width || result.height < height };
  }
  const scale = options.width ? options.width / width : (options.scale ?? limits.scale);
  if (scale === 1 && !options.width) {
    return { input: { width, height, shrunk: false }, passes: 0, result: { width, height }, smaller: false };
  }
  const wanted = options.width ? { width: options.width, height: Math.max(1, Math.round((height * options.width) / width)) } : { width: Math.round(width * scale), height: Math.round(height * scale) };
  const result = fit(wanted.width, wanted.height, IMAGE_MAX_RESULT_SIDE);
  const passes = scale > 2 ? 2 : 1;
  const bound = passes === 2 ? IMAGE_MAX_RESULT_SIDE / 4 : IMAGE_MAX_RESULT_SIDE / 2;
  const input = fit(width, height, Math.min(bound, Math.max(result.width, result.height)));
  return { input: { ...input, shrunk: input.width !== width || input.height !== height }, passes, result, smaller: result.width < width || result.height < height };
}

/** The refusal of an enlargement that would come back smaller (IMAGES.WOULD_NOT_ENLARGE). */
export const IMAGE_WOULD_NOT_ENLARGE_MESSAGE = `This image is larger than ${IMAGE_MAX_RESULT_SIDE} px: an enlargement would come back smaller. Choose Clean-up (1x) instead.`;

/**
 * Whether a conversion is refused because the user asked an enlargement that `plan` makes smaller
 * than the input (an input past IMAGE_MAX_RESULT_SIDE): an AI scale above 1 or an exact width
 * above the input's, or the classic 2x. Asking a smaller exact width, the clean-up and the 1x
 * styles (shrunk to their bound, and said so) are not refused. The page greys Convert out with
 * IMAGE_WOULD_NOT_ENLARGE_MESSAGE; the API refuses with IMAGES.WOULD_NOT_ENLARGE.
 */
export function refusesEnlargement(width: number, height: number, conversion: ImageConversion, options: Pick<ImageOptions, 'scale' | 'width'> = DEFAULT_IMAGE_OPTIONS): boolean {
  const plan = planImageSize(width, height, conversion, options);
  if (!plan.smaller) return false;
  if (!isAiConversion(conversion)) return IMAGE_CONVERSION_LIMITS[conversion].scale > 1;
  if (options.width) return options.width > width;
  return (options.scale ?? IMAGE_CONVERSION_LIMITS[conversion].scale) > 1;
}

/** Uploads and fetched images: at most this many bytes (413 above for uploads). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_URL_MAX = 2048;
export const IMAGE_CREDITS = 1;
/** Spec: the wait notice. */
export const IMAGE_WAIT_NOTICE = 'Processing image, expected to take 5~10s, please wait...';
/** Spec: the hint of the Image URL tab. */
export const IMAGE_URL_HINT = 'Please enter a valid image URL';

export type ImageJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/**
 * Facts about a finished job the page puts into words: `first-frame` (an animated GIF or WebP:
 * only its first frame was converted), `flattened` (transparency on white: a JPEG has no alpha),
 * `repeat-credit-returned` (a URL job whose image had been converted with the same settings in
 * the last 24 hours: that result was copied and the credit returned).
 */
export const IMAGE_JOB_NOTES = ['first-frame', 'flattened', 'repeat-credit-returned'] as const;
export type ImageJobNote = (typeof IMAGE_JOB_NOTES)[number];

export interface ImageJobView {
  id: string;
  conversion: ImageConversion;
  source: 'upload' | 'url';
  status: ImageJobStatus;
  /** Why it failed, safe to show; the credit was returned. */
  error: { code: string; message: string } | null;
  /** What it was asked to do besides the conversion. */
  options: ImageOptions;
  input: { width: number; height: number; shrunk: boolean } | null;
  result: { width: number; height: number } | null;
  /** The result's file type, once there is one. */
  result_format: 'png' | 'webp' | 'jpeg' | null;
  /** While running: tiles (or steps) done of all, for a progress bar. */
  progress: { done: number; total: number } | null;
  /** What the page should say about the result (IMAGE_JOB_NOTES), once it is known. */
  notes: ImageJobNote[];
  /**
   * In the answer to an upload that repeats a job of the last 24 hours (the same owner, the same
   * image bytes and the same settings; HTTP 200): that job is answered, finished already, and no
   * credit was used. The page says "You converted this image at 14:02: here it is again, no credit
   * used". A URL job finds out where it runs: it succeeds with the earlier result copied, `repeat`
   * on every view of it, credits 0 and the note `repeat-credit-returned` (its hold was released).
   */
  repeat?: { converted_at: string };
  credits: number;
  created_at: string;
  finished_at: string | null;
  /** The preview, result and thumbnail can still be downloaded (they are deleted after a while). */
  files: boolean;
  /**
   * While queued or running: the jobs ahead of it (the running ones included), and when it will
   * probably be done, in seconds from now: typical, and a range from quick to slow recent jobs,
   * with the work ahead shared by the live workers (null: no history yet, or no worker alive).
   */
  queue: { position: number; estimate_seconds: number | null; estimate_range: { low: number; high: number } | null } | null;
}

/**
 * GET /api/v1/images/estimate: what converting a `width` x `height` image would give and take if
 * it were submitted now, shown before the credit is spent. `seconds` is from now until it would
 * be done (behind the jobs queued and running, shared by the live workers): quick, typical and
 * slow, from the seconds per output megapixel of recent jobs of the conversion (`basis: 'recent'`)
 * or the documented defaults without enough history (`'default'`); null with no worker alive.
 */
export interface ImageEstimate {
  result: { width: number; height: number };
  seconds: { low: number; typical: number; high: number } | null;
  basis: 'recent' | 'default' | null;
  queue: { ahead: number; workers: number };
}
