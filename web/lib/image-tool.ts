import {
  DEFAULT_IMAGE_CONVERSION,
  DEFAULT_IMAGE_OPTIONS,
  IMAGE_CONVERSION_LIMITS,
  IMAGE_DEFAULT_QUALITY,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_EXACT_WIDTH,
  isAiConversion,
  type ImageConversion,
  type ImageEstimate,
  type ImageJobStatus,
  type ImageJobView,
  type ImageOptions,
  type ImageScale,
} from 'src/contracts/images';
import type { AccountMessageKey } from 'web/i18n/account-messages';

/**
 * Pure helpers of the image tool page: the browser's check of a chosen file (the server decides
 * by the bytes), the choices and the fields they send, sizes and times in words, the queue line,
 * the polling rhythm, the API's file addresses.
 */

/** What the file picker offers and the browser lets through (the server reads the magic bytes). */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
const ACCEPTED_EXTENSIONS = /\.(jpe?g|png|webp|gif)$/i;

/** The reason a chosen file cannot be sent, or null. A file without a type is judged by its name. */
export function checkImageFile(file: { name: string; type: string; size: number }): AccountMessageKey | null {
  const typed = file.type !== '';
  if (typed ? !(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type) : !ACCEPTED_EXTENSIONS.test(file.name)) return 'image.fileType';
  if (file.size === 0) return 'image.fileEmpty';
  if (file.size > IMAGE_MAX_BYTES) return 'image.fileTooLarge';
  return null;
}

/** "10 MB", "2.4 MB", "350 KB" (binary units, as the 10 MB limit is). */
export function formatBytes(bytes: number, tag: string): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${mb.toLocaleString(tag, { maximumFractionDigits: mb >= 10 ? 0 : 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString(tag)} KB`;
}

/** The names and one-line descriptions of the conversions, in the order offered. */
export const CONVERSION_KEYS: Record<ImageConversion, { name: AccountMessageKey; description: AccountMessageKey }> = {
  'ai-2x': { name: 'image.convAi2x', description: 'image.convAi2xText' },
  'ai-2x-fast': { name: 'image.convAi2xFast', description: 'image.convAi2xFastText' },
  'ai-4x': { name: 'image.convAi4x', description: 'image.convAi4xText' },
  sketch: { name: 'image.convSketch', description: 'image.convSketchText' },
  cartoon: { name: 'image.convCartoon', description: 'image.convCartoonText' },
  enhance: { name: 'image.convEnhance', description: 'image.convEnhanceText' },
};

export const JOB_STATUS_KEYS: Record<ImageJobStatus, AccountMessageKey> = {
  queued: 'image.statusQueued',
  running: 'image.statusRunning',
  succeeded: 'image.statusSucceeded',
  failed: 'image.statusFailed',
};

export const jobStatusTone = (status: ImageJobStatus): 'green' | 'amber' | 'red' => (status === 'succeeded' ? 'green' : status === 'failed' ? 'red' : 'amber');

export const isUnfinished = (job: Pick<ImageJobView, 'status'>) => job.status === 'queued' || job.status === 'running';

/** A message key and its values: words the page translates. */
export interface Words {
  key: AccountMessageKey;
  values?: Record<string, number>;
}

/** Where the job stands: "2 jobs ahead of yours", "Yours is next", "Converting your image now". */
export function queueWords(job: Pick<ImageJobView, 'status' | 'queue'>): Words {
  if (job.status === 'running') return { key: 'image.running' };
  const ahead = job.queue?.position ?? 0;
  if (ahead <= 0) return { key: 'image.queueNext' };
  return { key: ahead === 1 ? 'image.queueAheadOne' : 'image.queueAhead', values: { count: ahead } };
}

/**
 * The estimate in words, as the range it is: "ready in 8–14 s", "ready in 2–3 min", "ready in
 * about 5 s" when both ends round alike; null when the server has no figure (no history yet, no worker).
 */
export function estimateWords(range: { low: number; high: number } | null | undefined): Words | null {
  if (!range || !Number.isFinite(range.low) || !Number.isFinite(range.high) || range.high < 0) return null;
  const low = Math.max(0, Math.min(range.low, range.high));
  const high = Math.max(range.low, range.high);
  if (high < 1) return { key: 'image.estimateSoon' };
  const minutes = high >= 90;
  const round = (seconds: number) => Math.max(1, minutes ? Math.ceil(seconds / 60) : Math.ceil(seconds));
  const [from, to] = [round(low), round(high)];
  if (from === to) return { key: minutes ? 'image.estimateMinutes' : 'image.estimateSeconds', values: { count: to } };
  return { key: minutes ? 'image.estimateMinutesRange' : 'image.estimateSecondsRange', values: { from, to } };
}

/**
 * How far along a running job probably is, from 0 to 0.95 (it never claims to be done before the
 * server says so); null (an indeterminate bar) while queued or without an estimate.
 */
export function progressOf(job: Pick<ImageJobView, 'status' | 'queue'>, elapsedSeconds: number, estimateAtStart: number | null): number | null {
  if (job.status !== 'running' || !estimateAtStart || estimateAtStart <= 0) return null;
  return Math.min(0.95, Math.max(0, elapsedSeconds / estimateAtStart));
}

/** Spec: the job is asked about every second while it is queued or running; slower after failures (up to 10 s). */
export const JOB_POLL_MS = 1000;
export const pollDelay = (failures: number) => Math.min(10_000, JOB_POLL_MS * 2 ** Math.max(0, failures));

/** The job's files on the API: the input as converted, the result (as an attachment: `download`), the thumbnail. */
export function jobFileUrl(id: string, file: 'preview' | 'result' | 'thumbnail', download = false): string {
  return `/api/v1/images/${encodeURIComponent(id)}/${file}${download ? '?download=1' : ''}`;
}

/** POST /api/v1/images refusals that deserve words of their own (the rest show the server's message). */
export function submitProblem(status: number, code: string | undefined): AccountMessageKey | null {
  if (status === 413) return 'image.fileTooLarge';
  if (status === 429) return code === 'IMAGES.TOO_MANY_UNFINISHED' ? 'image.tooMany' : 'image.rateLimited';
  return null;
}

/**
 * What the page offers: AI upscale (CUnet), AI upscale fast (upconv_7) and the classic styles.
 * 'ai-4x' is not a card of its own: it is AI upscale at size 4x (the same network, two passes),
 * sent as 'ai-4x' so its jobs keep their own name and timing history.
 */
export const CONVERSION_CHOICES = ['ai-2x', 'ai-2x-fast', 'sketch', 'cartoon', 'enhance'] as const satisfies readonly ImageConversion[];
export type ConversionChoice = (typeof CONVERSION_CHOICES)[number];

/** The card of each choice: its name and one line on what it does. */
export const CHOICE_KEYS: Record<ConversionChoice, { name: AccountMessageKey; description: AccountMessageKey }> = {
  'ai-2x': { name: 'image.choiceAi', description: 'image.choiceAiText' },
  'ai-2x-fast': { name: 'image.choiceAiFast', description: 'image.choiceAiFastText' },
  sketch: CONVERSION_KEYS.sketch,
  cartoon: CONVERSION_KEYS.cartoon,
  enhance: CONVERSION_KEYS.enhance,
};

/** The choice a job (or a conversion) belongs to: AI 4x is AI upscale at 4x. */
export const choiceOf = (conversion: ImageConversion): ConversionChoice => (conversion === 'ai-4x' ? 'ai-2x' : conversion);

/** The size control's value: a scale, or an exact width (in pixels, as typed: validated by widthProblem). */
export type SizeChoice = { kind: 'scale'; scale: ImageScale } | { kind: 'width'; width: string };

/** The page's choices besides the source, as the form holds them. */
export interface ImageChoices {
  choice: ConversionChoice;
  size: SizeChoice;
  noise: ImageOptions['noise'];
  format: ImageOptions['format'];
  quality: number;
}
export const DEFAULT_CHOICES: ImageChoices = {
  choice: choiceOf(DEFAULT_IMAGE_CONVERSION),
  size: { kind: 'scale', scale: 2 },
  noise: DEFAULT_IMAGE_OPTIONS.noise,
  format: DEFAULT_IMAGE_OPTIONS.format,
  quality: IMAGE_DEFAULT_QUALITY,
};

/** Why the exact width cannot be sent, or null. */
export function widthProblem(size: SizeChoice): AccountMessageKey | null {
  if (size.kind !== 'width') return null;
  const width = Number(size.width);
  if (size.width.trim() === '' || !Number.isInteger(width) || width < 1 || width > IMAGE_MAX_EXACT_WIDTH) return 'image.widthInvalid';
  return null;
}

/**
 * The request the choices make: the conversion and the options the server is sent (only those
 * that differ from the conversion's own: a classic style takes format and quality only).
 */
export function requestOf(choices: ImageChoices): { conversion: ImageConversion; options: ImageOptions } {
  const ai = isAiConversion(choices.choice);
  const exact = ai && choices.size.kind === 'width' && !widthProblem(choices.size) ? Number(choices.size.width) : null;
  const scale = ai && choices.size.kind === 'scale' ? choices.size.scale : null;
  // AI upscale at 4x is the 4x conversion (its own scale); the fast network has no 4x of its own.
  const conversion: ImageConversion = choices.choice === 'ai-2x' && scale === 4 ? 'ai-4x' : choices.choice;
  const own = IMAGE_CONVERSION_LIMITS[conversion].scale;
  return {
    conversion,
    options: {
      scale: scale === null || scale === own ? null : scale,
      width: exact,
      noise: ai ? choices.noise : 'auto',
      format: choices.format,
      quality: choices.quality,
    },
  };
}

/** The fields of a submission (multipart text fields or JSON values): those not at their default. */
export function requestFields(request: { conversion: ImageConversion; options: ImageOptions }, fileType?: string): Record<string, string | number> {
  const { conversion, options } = request;
  const fields: Record<string, string | number> = { conversion };
  if (options.scale !== null) fields.scale = options.scale;
  if (options.width !== null) fields.width = options.width;
  if (options.noise !== 'auto') fields.noise = options.noise;
  if (options.format !== 'auto') fields.format = options.format;
  if (options.quality !== IMAGE_DEFAULT_QUALITY && hasQuality(options.format, fileType)) fields.quality = options.quality;
  return fields;
}

/** The result's format: 'auto' keeps JPEG and WebP and gives PNG otherwise; null when the input's type is unknown (a URL). */
export function resultFormatOf(format: ImageOptions['format'], fileType: string | undefined): 'png' | 'webp' | 'jpeg' | null {
  if (format !== 'auto') return format;
  if (fileType === 'image/jpeg') return 'jpeg';
  if (fileType === 'image/webp') return 'webp';
  if (fileType === 'image/png' || fileType === 'image/gif') return 'png';
  return null;
}

/** Quality applies to JPEG and WebP results (and to an 'auto' result whose format is not known yet). */
export const hasQuality = (format: ImageOptions['format'], fileType: string | undefined) => resultFormatOf(format, fileType) !== 'png';

/** GET /api/v1/images/estimate for the request, for an image of width x height. */
export function estimatePath(request: { conversion: ImageConversion; options: ImageOptions }, width: number, height: number): string {
  const query = new URLSearchParams({ conversion: request.conversion, width: String(width), height: String(height) });
  if (request.options.scale !== null) query.set('scale', String(request.options.scale));
  if (request.options.width !== null) query.set('width_out', String(request.options.width));
  return `/api/v1/images/estimate?${query.toString()}`;
}

/**
 * The time before Convert: "about 25 s (20–40 s)", "about 2 min (1–3 min)" past 90 s; null
 * without a figure.
 */
export function expectedTimeWords(seconds: ImageEstimate['seconds'] | undefined): Words | null {
  if (!seconds || !Number.isFinite(seconds.typical)) return null;
  const minutes = seconds.high >= 90;
  const round = (value: number) => Math.max(1, minutes ? Math.round(value / 60) : Math.round(value));
  const [low, typical, high] = [round(seconds.low), round(seconds.typical), round(seconds.high)];
  if (low === high) return { key: minutes ? 'image.expectedMinutes' : 'image.expectedSeconds', values: { count: typical } };
  return { key: minutes ? 'image.expectedMinutesRange' : 'image.expectedSecondsRange', values: { count: typical, from: low, to: high } };
}

/** What the chosen file is, as far as the notes under the plan need: its type, transparency and animation (null: not known). */
export interface ImageTraits {
  type: string;
  alpha: boolean | null;
  animated: boolean | null;
}

/** The notes on what is kept and lost: always the general one; JPEG losing transparency; an animation's first frame. */
export function keptNotes(traits: ImageTraits | null, resultFormat: 'png' | 'webp' | 'jpeg' | null): AccountMessageKey[] {
  const notes: AccountMessageKey[] = ['image.keptDetails'];
  // Transparency is only known for a chosen file; a URL's image may have some.
  if (resultFormat === 'jpeg' && (traits?.alpha ?? true) && traits?.type !== 'image/jpeg') notes.push('image.jpegNoAlpha');
  if (traits && (traits.type === 'image/gif' || (traits.type === 'image/webp' && traits.animated))) notes.push('image.firstFrame');
  return notes;
}

/** An animated WebP, from its first 21 bytes: RIFF....WEBPVP8X with the animation flag (bit 1 of byte 20). */
export function isAnimatedWebp(bytes: Uint8Array): boolean {
  const text = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  return bytes.length >= 21 && text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP' && text(12, 16) === 'VP8X' && (bytes[20]! & 0x02) !== 0;
}

/** "14:02": the time of day of a date in the user's language, on the 24-hour clock. */
export function clockTime(iso: string, tag: string): string {
  return new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** The result's file type in words, and the extension its download gets. */
export const FORMAT_LABELS: Record<'png' | 'webp' | 'jpeg', { label: string; extension: string }> = {
  png: { label: 'PNG', extension: 'png' },
  webp: { label: 'WebP', extension: 'webp' },
  jpeg: { label: 'JPEG', extension: 'jpg' },
};

/** The name a result is saved under: "ai-2x-1a2b3c4d.jpg", the extension from its format (PNG until known). */
export const downloadName = (job: Pick<ImageJobView, 'id' | 'conversion' | 'result_format'>) =>
  `${job.conversion}-${job.id.slice(0, 8)}.${FORMAT_LABELS[job.result_format ?? 'png'].extension}`;

/** A running job's progress from the worker's tiles done, 0 to 1; null without a figure. */
export function reportedProgress(job: Pick<ImageJobView, 'status' | 'progress'>): number | null {
  const progress = job.progress;
  if (job.status !== 'running' || !progress || !(progress.total > 0)) return null;
  return Math.min(1, Math.max(0, progress.done / progress.total));
}
