/**
 * The image tool as the browser and the API see it. Every conversion costs 1 credit, held when the
 * job is accepted, taken when it succeeds, given back when it fails.
 */
export const IMAGE_CONVERSIONS = ['ai-2x', 'ai-2x-fast', 'ai-4x', 'sketch', 'cartoon', 'enhance'] as const;
export type ImageConversion = (typeof IMAGE_CONVERSIONS)[number];
export const DEFAULT_IMAGE_CONVERSION: ImageConversion = 'ai-2x';

/** What each conversion does to the size: the longest side it takes (larger inputs are shrunk to fit), and its scale. */
export const IMAGE_CONVERSION_LIMITS: Record<ImageConversion, { maxInputSide: number; scale: number }> = {
  'ai-2x': { maxInputSide: 512, scale: 2 },
  'ai-2x-fast': { maxInputSide: 512, scale: 2 },
  'ai-4x': { maxInputSide: 256, scale: 4 },
  sketch: { maxInputSide: 2048, scale: 1 },
  cartoon: { maxInputSide: 2048, scale: 1 },
  enhance: { maxInputSide: 1024, scale: 2 },
};

/** Uploads and fetched images: at most this many bytes (413 above for uploads). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_URL_MAX = 2048;
export const IMAGE_CREDITS = 1;
/** Spec: the wait notice. */
export const IMAGE_WAIT_NOTICE = 'Processing image, expected to take 5~10s, please wait...';
/** Spec: the hint of the Image URL tab. */
export const IMAGE_URL_HINT = 'Please enter a valid image URL';

export type ImageJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ImageJobView {
  id: string;
  conversion: ImageConversion;
  source: 'upload' | 'url';
  status: ImageJobStatus;
  /** Why it failed, safe to show; the credit was returned. */
  error: { code: string; message: string } | null;
  input: { width: number; height: number; shrunk: boolean } | null;
  result: { width: number; height: number } | null;
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
