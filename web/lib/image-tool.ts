import { IMAGE_CONVERSION_LIMITS, IMAGE_MAX_BYTES, type ImageConversion, type ImageJobStatus, type ImageJobView } from 'src/contracts/images';
import type { PageMessageKey } from 'web/i18n/page-messages';

/**
 * Pure helpers of the image tool page: the browser's check of a chosen file (the server decides
 * by the bytes), sizes in words, the queue line, the polling rhythm, the API's file addresses.
 */

/** What the file picker offers and the browser lets through (the server reads the magic bytes). */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
const ACCEPTED_EXTENSIONS = /\.(jpe?g|png|webp|gif)$/i;

/** The reason a chosen file cannot be sent, or null. A file without a type is judged by its name. */
export function checkImageFile(file: { name: string; type: string; size: number }): PageMessageKey | null {
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

/** The size an image of width x height takes within a conversion's bound (the server shrinks the same way). */
export function fitWithin(width: number, height: number, conversion: ImageConversion): { width: number; height: number; shrunk: boolean } {
  const max = IMAGE_CONVERSION_LIMITS[conversion].maxInputSide;
  const side = Math.max(width, height);
  if (side <= max) return { width, height, shrunk: false };
  const ratio = max / side;
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)), shrunk: true };
}

/** The names and one-line descriptions of the conversions, in the order offered. */
export const CONVERSION_KEYS: Record<ImageConversion, { name: PageMessageKey; description: PageMessageKey }> = {
  'ai-2x': { name: 'image.convAi2x', description: 'image.convAi2xText' },
  'ai-2x-fast': { name: 'image.convAi2xFast', description: 'image.convAi2xFastText' },
  'ai-4x': { name: 'image.convAi4x', description: 'image.convAi4xText' },
  sketch: { name: 'image.convSketch', description: 'image.convSketchText' },
  cartoon: { name: 'image.convCartoon', description: 'image.convCartoonText' },
  enhance: { name: 'image.convEnhance', description: 'image.convEnhanceText' },
};

export const JOB_STATUS_KEYS: Record<ImageJobStatus, PageMessageKey> = {
  queued: 'image.statusQueued',
  running: 'image.statusRunning',
  succeeded: 'image.statusSucceeded',
  failed: 'image.statusFailed',
};

export const jobStatusTone = (status: ImageJobStatus): 'green' | 'amber' | 'red' => (status === 'succeeded' ? 'green' : status === 'failed' ? 'red' : 'amber');

export const isUnfinished = (job: Pick<ImageJobView, 'status'>) => job.status === 'queued' || job.status === 'running';

/** A message key and its values: words the page translates. */
export interface Words {
  key: PageMessageKey;
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
export function submitProblem(status: number, code: string | undefined): PageMessageKey | null {
  if (status === 413) return 'image.fileTooLarge';
  if (status === 429) return code === 'IMAGES.TOO_MANY_UNFINISHED' ? 'image.tooMany' : 'image.rateLimited';
  return null;
}
