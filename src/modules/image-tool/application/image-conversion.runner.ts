import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { CreditLedger } from 'src/modules/credits/credits.module';
import type { JobContext } from 'src/platform/queue/job-processors';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { CONVERSIONS } from '../domain/conversions';
import { chargeKey, CONVERSION_DEADLINE_MS, jobFiles } from '../domain/image-job';
import { ImageJobRepository } from '../domain/image-job-repository.port';
import { ImageConverter } from '../domain/image-converter.port';
import { ImageCodec } from '../domain/image-codec.port';
import { ImageFetcher } from '../domain/image-fetcher.port';
import { ImageStore } from '../domain/image-store.port';
import { ImageFetchError, InvalidImageError } from '../domain/image-tool.errors';
import { ImageToolService } from './image-tool.service';

const THUMBNAIL_SIDE = 256;
/** A job still unfinished this long after it was accepted can no longer finish: it fails and its credit returns. */
export const LOST_JOB_AFTER_MS = 30 * 60_000;
/** A queued job older than this is queued again (its message may have been lost; a duplicate is ignored). */
export const REQUEUE_AFTER_MS = 30_000;

class DeadlineError extends Error {
  constructor() {
    super(`The conversion took longer than ${CONVERSION_DEADLINE_MS / 1000} s`);
    this.name = 'DeadlineError';
  }
}

/**
 * Runs image jobs where the jobs run. PostgreSQL decides: a finished job is never run again, the
 * credit is captured in the same transaction as the success mark, and released (once) when the
 * job fails for good, whether bad input (at once), attempts exhausted, or lost.
 */
@Injectable()
export class ImageConversionRunner {
  private readonly logger = new Logger('Images');

  constructor(
    private readonly jobs: ImageJobRepository,
    private readonly ledger: CreditLedger,
    private readonly store: ImageStore,
    private readonly codec: ImageCodec,
    private readonly converter: ImageConverter,
    private readonly fetcher: ImageFetcher,
    private readonly service: ImageToolService,
    private readonly config: AppConfig,
  ) {}

  async run(jobId: string, context: Pick<JobContext, 'attempt' | 'attempts'>): Promise<void> {
    const job = await this.jobs.start(jobId);
    if (!job) return; // finished already: a second delivery changes nothing
    const deadline = AbortSignal.timeout(CONVERSION_DEADLINE_MS);
    const files = jobFiles(job.id);
    try {
      const bytes = job.source === 'upload' ? (await this.store.get(files.input))?.bytes : (await this.fetcher.fetch(job.sourceUrl ?? '', deadline)).bytes;
      if (!bytes) throw new InvalidImageError('The uploaded image is no longer available. Please upload it again.', 'input file missing');
      const spec = CONVERSIONS[job.conversion];
      const input = await this.codec.decode(bytes, spec.maxInputSide);
      const result = await this.converter.convert(input.image, job.conversion, deadline);
      await this.store.put(files.preview, await this.codec.encodePng(input.image), 'image/png');
      await this.store.put(files.result, await this.codec.encodePng(result), 'image/png');
      await this.store.put(files.thumbnail, await this.codec.thumbnail(result, THUMBNAIL_SIDE), 'image/jpeg');
      await this.jobs.inTransaction(async () => {
        const done = await this.jobs.succeed(job.id, {
          inputWidth: input.image.width,
          inputHeight: input.image.height,
          resultWidth: result.width,
          resultHeight: result.height,
          shrunk: input.shrunk,
        });
        if (done) await this.ledger.capture(chargeKey(job.id));
      });
    } catch (raw) {
      const error = deadline.aborted && !(raw instanceof InvalidImageError) && !(raw instanceof ImageFetchError) ? new DeadlineError() : raw;
      if (error instanceof InvalidImageError || error instanceof ImageFetchError) {
        // The user's outcome (a bad URL, a truncated or unsupported file), not a fault of ours: the row
        // says so and the credit returns, and the queue's job completes, out of the failed list and alerts.
        this.logger.log(`Image job ${job.id} ended without a result, the user's input: ${error.reason}`);
        await this.failForGood(job.id, error.code, error.message);
        return;
      }
      if (error instanceof DeadlineError) {
        this.logger.warn(`Image job ${job.id} failed for good: ${error.message}`);
        await this.failForGood(job.id, 'IMAGES.TOO_SLOW', 'The conversion took too long. Try a smaller image or a faster conversion.');
        throw new PermanentJobError(error.message, { cause: error });
      }
      // Another attempt may succeed (storage, database); after the last one the queue calls failedForGood.
      this.logger.warn(`Image job ${job.id} attempt ${context.attempt}/${context.attempts} failed`);
      throw error;
    }
  }

  /**
   * At start with the embedded database and no Redis: every unfinished job runs again, the one
   * converting when the process died too. The DATA_DIR lock means no other process can own them.
   */
  async resumeAfterRestart(): Promise<number> {
    const unfinished = await this.jobs.unfinishedBefore(new Date(), 500);
    for (const id of unfinished) await this.service.enqueue(id);
    if (unfinished.length) this.logger.log(`${unfinished.length} unfinished image job(s) from before the restart queued again`);
    return unfinished.length;
  }

  /** The queue's verdict that a job failed for good (attempts exhausted, stalled too often). */
  async failedForGood(jobId: string): Promise<void> {
    await this.failForGood(jobId, 'IMAGES.CONVERSION_FAILED', 'The conversion failed.');
  }

  /**
   * Marks the job failed unless it succeeded, and gives its credit back (the ledger releases a
   * charge once, however often this runs).
   */
  private async failForGood(jobId: string, code: string, message: string): Promise<void> {
    await this.jobs.inTransaction(async () => {
      await this.jobs.fail(jobId, { code, message });
      const job = await this.jobs.findById(jobId);
      if (job?.status === 'failed') await this.ledger.release(chargeKey(jobId), 'Image conversion failed: credit returned');
    });
  }

  /**
   * The image outbox's entries (the job rows): jobs still queued since before `before`, whose queue
   * message may be lost (Redis was down), and jobs running since then where BullMQ can tell whether
   * their job still lives (an active one is left alone; one that gave up runs again); in this
   * process's own queue (no Redis) a running row may be another web process's.
   */
  async waitingForTheQueue(before: Date, limit: number): Promise<string[]> {
    const running = this.config.redis.url ? await this.jobs.runningSince(before, limit) : [];
    return [...(await this.jobs.queuedBefore(before, limit)), ...running];
  }

  /**
   * Housekeeping where the jobs run: fails (and refunds) the jobs that can no longer finish, and
   * deletes files past the retention period. (The outbox relay queues again those still waiting.)
   */
  async housekeeping(now = new Date()): Promise<{ lost: number; deleted: number }> {
    const lost = await this.jobs.unfinishedBefore(new Date(now.getTime() - LOST_JOB_AFTER_MS), 200);
    for (const id of lost) await this.failForGood(id, 'IMAGES.LOST', 'The conversion could not finish.');
    if (lost.length) this.logger.warn(`${lost.length} image job(s) could not finish: failed, credits returned`);
    const expired = await this.jobs.filesOlderThan(new Date(now.getTime() - this.config.images.retentionDays * 86_400_000), 200);
    for (const id of expired) {
      const files = jobFiles(id);
      for (const key of Object.values(files)) await this.store.delete(key);
      await this.jobs.markFilesDeleted(id);
    }
    return { lost: lost.length, deleted: expired.length };
  }
}
