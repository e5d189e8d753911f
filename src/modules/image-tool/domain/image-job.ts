import type { ImageJobNote, ImageNoiseLevel, ImageOptions, ImageOutputFormat } from 'src/contracts/images';
import type { ConversionId } from './conversions';
import { defaultNoise } from './noise-defaults';

export type ImageJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** One conversion a user asked for. PostgreSQL is its source of truth; the queue only delivers it. */
export class ImageJob {
  id!: string;
  userId!: string;
  conversion!: ConversionId;
  source!: 'upload' | 'url';
  /** The URL the user typed (source 'url'). */
  sourceUrl!: string | null;
  status!: ImageJobStatus;
  /** A stable code and a message safe to show, when it failed. */
  errorCode!: string | null;
  errorMessage!: string | null;
  inputWidth!: number | null;
  inputHeight!: number | null;
  resultWidth!: number | null;
  resultHeight!: number | null;
  /** The input was larger than the conversion takes and was shrunk to fit. */
  shrunk!: boolean;
  /** What the user chose besides the conversion. */
  options!: ImageOptions;
  /** The input's bytes' SHA-256 (hex): at submission for uploads, when fetched for URLs. The same image twice costs nothing. */
  inputSha256!: string | null;
  resultFormat!: ResultFormat | null;
  /** Tiles (or steps) done of all while it runs, saved about once a second. */
  progressDone!: number | null;
  progressTotal!: number | null;
  /** Facts the page puts into words (first frame only, flattened on white, a repeat). */
  notes!: ImageJobNote[];
  /** A URL job whose image had been converted the same way lately: that job, its result copied, the credit released. */
  repeatOf!: string | null;
  /** When the job it repeats finished. */
  repeatConvertedAt!: Date | null;
  /** Its place in the image queue: 1 goes first; see `queuePriority`. */
  queuePriority!: number;
  attempts!: number;
  createdAt!: Date;
  startedAt!: Date | null;
  finishedAt!: Date | null;
  /** When its files (input, preview, result) were deleted after the retention period. */
  filesDeletedAt!: Date | null;
}

/** Spec: an image costs 1 credit. */
export const CREDITS_PER_IMAGE = 1;
/** At most this many submissions per user per minute (on top of the per-IP limit). */
export const MAX_SUBMISSIONS_PER_MINUTE = 10;
/** A submission repeating a job of this long ago or less (same owner, image and settings) is answered by that job, for nothing. */
export const REPEAT_WINDOW_MS = 24 * 3_600_000;

export type ResultFormat = 'png' | 'webp' | 'jpeg';
export type InputFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** The result's format: `auto` keeps JPEG and WebP as they are, PNG and GIF give PNG. */
export const resultFormatFor = (format: ImageOutputFormat, input: InputFormat): ResultFormat =>
  format !== 'auto' ? format : input === 'jpeg' ? 'jpeg' : input === 'webp' ? 'webp' : 'png';

/**
 * The denoising that runs: `auto` is DEFAULT_NOISE_FOR_JPEG for JPEG inputs (their artefacts) and
 * none otherwise; the 1x clean-up (passes 0) always denoises, at least `low`.
 */
export function resolveNoise(noise: ImageOptions['noise'], input: InputFormat, passes: 0 | 1 | 2): ImageNoiseLevel {
  const level = noise === 'auto' ? defaultNoise(input === 'jpeg') : noise;
  return passes === 0 && level === 'none' ? 'low' : level;
}

export const RESULT_CONTENT_TYPES: Record<ResultFormat, string> = { png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };
export const RESULT_EXTENSIONS: Record<ResultFormat, string> = { png: 'png', webp: 'webp', jpeg: 'jpg' };

/** The credit charge of a job: one key per job, so a replay never charges twice. */
export const chargeKey = (jobId: string) => `image-job:${jobId}`;

/**
 * The id of a job's 'image.convert' queue job: queueing it again while the queue knows it does
 * nothing. `image-<id>` as before: jobs already in Redis, bull-board and the logs carry it.
 */
export const queueJobId = (jobId: string) => `image-${jobId}`;

/** Storage keys of a job's files; the result's extension is its format (jobs before formats: PNG). */
export const jobFiles = (jobId: string, resultFormat: ResultFormat | null = 'png') => ({
  input: `jobs/${jobId}/input`,
  preview: `jobs/${jobId}/preview.png`,
  result: `jobs/${jobId}/result.${RESULT_EXTENSIONS[resultFormat ?? 'png']}`,
  thumbnail: `jobs/${jobId}/thumbnail.jpg`,
});

/** Every key a job may have written, whatever its result's format: what the housekeeping deletes. */
export const allJobFileKeys = (jobId: string) => [...new Set((['png', 'webp', 'jpeg'] as const).flatMap((format) => Object.values(jobFiles(jobId, format))))];

export const isFinished = (status: ImageJobStatus) => status === 'succeeded' || status === 'failed';
