import type { ConversionId } from './conversions';

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
/** A conversion that takes longer is stopped and fails (its credit returns). */
export const CONVERSION_DEADLINE_MS = 60_000;

/** The credit charge of a job: one key per job, so a replay never charges twice. */
export const chargeKey = (jobId: string) => `image-job:${jobId}`;

/**
 * The id of a job's 'image.convert' queue job: queueing it again while the queue knows it does
 * nothing. `image-<id>` as before: jobs already in Redis, bull-board and the logs carry it.
 */
export const queueJobId = (jobId: string) => `image-${jobId}`;

/** Storage keys of a job's files. */
export const jobFiles = (jobId: string) => ({
  input: `jobs/${jobId}/input`,
  preview: `jobs/${jobId}/preview.png`,
  result: `jobs/${jobId}/result.png`,
  thumbnail: `jobs/${jobId}/thumbnail.jpg`,
});

export const isFinished = (status: ImageJobStatus) => status === 'succeeded' || status === 'failed';
