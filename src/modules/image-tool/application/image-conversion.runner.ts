import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { CreditLedger } from 'src/modules/credits';
import type { JobContext } from 'src/platform/queue/job-processors';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { planImageSize, refusesEnlargement, type ImageJobNote } from 'src/contracts/images';
import { ConversionBudget } from '../domain/conversion-budget';
import { allJobFileKeys, chargeKey, jobFiles, REPEAT_WINDOW_MS, RESULT_CONTENT_TYPES, resolveNoise, resultFormatFor, type ImageJob } from '../domain/image-job';
import { ImageJobRepository } from '../domain/image-job-repository.port';
import { ImageConverter } from '../domain/image-converter.port';
import { ImageCodec } from '../domain/image-codec.port';
import { ImageFetcher } from '../domain/image-fetcher.port';
import { ImageStore } from '../domain/image-store.port';
import { ImageFetchError, InvalidImageError, WouldNotEnlargeError } from '../domain/image-tool.errors';
import { ImageToolService, sha256 } from './image-tool.service';

const THUMBNAIL_SIDE = 256;
/**
 * A job still unfinished this long after it was accepted, or after its last attempt started, can no
 * longer finish: it fails and its credit returns. Longer than the longest deadline (MAX_DEADLINE_MS).
 */
export const LOST_JOB_AFTER_MS = 30 * 60_000;
/** A queued job older than this is queued again (its message may have been lost; a duplicate is ignored). */
export const REQUEUE_AFTER_MS = 30_000;
/** Fetching a URL job's image (the fetcher stops at 10 s itself). */
const FETCH_DEADLINE_MS = 30_000;
/** Progress is saved on the job row at most this often: the page polls about once a second. */
const PROGRESS_EVERY_MS = 1_000;

class DeadlineError extends Error {
  constructor(ms: number) {
    super(`The conversion took longer than its ${Math.round(ms / 1000)} s`);
    this.name = 'DeadlineError';
  }
}

/** The user's own outcome: the row says why, the credit returns, the queue's job completes. */
const isUsersOutcome = (error: unknown): error is InvalidImageError | ImageFetchError | WouldNotEnlargeError =>
  error instanceof InvalidImageError || error instanceof ImageFetchError || error instanceof WouldNotEnlargeError;

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
    private readonly budget: ConversionBudget,
  ) {}

  /**
   * One attempt at a job: its input (stored, or fetched), the plan from its header
   * (`planImageSize`), the decode to the plan's input size, the conversion, the result encoded in
   * the chosen format; the deadline grows with the plan (ConversionBudget). A URL job whose image
   * this user converted the same way in the last 24 hours gets that result copied, and its credit
   * released instead of captured.
   */
  async run(jobId: string, context: Pick<JobContext, 'attempt' | 'attempts'>): Promise<void> {
    const job = await this.jobs.start(jobId);
    if (!job) return; // finished already: a second delivery changes nothing
    let deadlineMs = FETCH_DEADLINE_MS;
    let deadline = AbortSignal.timeout(deadlineMs);
    try {
      const bytes = job.source === 'upload' ? (await this.store.get(jobFiles(job.id).input))?.bytes : (await this.fetcher.fetch(job.sourceUrl ?? '', deadline)).bytes;
      if (!bytes) throw new InvalidImageError('The uploaded image is no longer available. Please upload it again.', 'input file missing');
      if (job.source === 'url' && (await this.repeatOfEarlier(job, bytes))) return;
      const header = await this.codec.probe(bytes);
      if (refusesEnlargement(header.width, header.height, job.conversion, job.options)) throw new WouldNotEnlargeError(header.width, header.height);
      const plan = planImageSize(header.width, header.height, job.conversion, job.options);
      if (job.source === 'url') await this.jobs.recordPlan(job.id, (plan.result.width * plan.result.height) / 1e6);
      deadlineMs = this.budget.deadlineMs(job.conversion, plan);
      deadline = AbortSignal.timeout(deadlineMs);
      const input = await this.codec.decode(bytes, plan.input);
      const noise = resolveNoise(job.options.noise, header.format, plan.passes);
      const result = await this.converter.convert(input.image, { conversion: job.conversion, plan, noise }, deadline, this.progressSaver(job.id));
      const format = resultFormatFor(job.options.format, header.format);
      const encoded = await this.codec.encode(result, { format, quality: job.options.quality });
      const files = jobFiles(job.id, format);
      await this.store.put(files.preview, (await this.codec.encode(input.image, { format: 'png', quality: job.options.quality })).bytes, 'image/png');
      await this.store.put(files.result, encoded.bytes, RESULT_CONTENT_TYPES[format]);
      await this.store.put(files.thumbnail, await this.codec.thumbnail(result, THUMBNAIL_SIDE), 'image/jpeg');
      const notes: ImageJobNote[] = [...(header.animated ? (['first-frame'] as const) : []), ...(encoded.flattened ? (['flattened'] as const) : [])];
      await this.jobs.inTransaction(async () => {
        const done = await this.jobs.succeed(job.id, {
          inputWidth: input.image.width,
          inputHeight: input.image.height,
          resultWidth: result.width,
          resultHeight: result.height,
          shrunk: input.shrunk,
          resultFormat: format,
          notes,
        });
        if (done) await this.ledger.capture(chargeKey(job.id));
      });
    } catch (raw) {
      const error = deadline.aborted && !isUsersOutcome(raw) ? new DeadlineError(deadlineMs) : raw;
      if (isUsersOutcome(error)) {
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
   * A URL job's bytes are known only here: when this user converted the same bytes with the same
   * settings in the last 24 hours (that job succeeded, its files kept), its files are copied to
   * this job, which succeeds as a repeat, and the hold is released, not captured. True when so.
   */
  private async repeatOfEarlier(job: ImageJob, bytes: Uint8Array): Promise<boolean> {
    const inputSha256 = sha256(bytes);
    await this.jobs.recordInput(job.id, inputSha256);
    const since = new Date(job.createdAt.getTime() - REPEAT_WINDOW_MS);
    const earlier = await this.jobs.findRepeat({ userId: job.userId, inputSha256, conversion: job.conversion, options: job.options, since, except: job.id }, ['succeeded']);
    if (!earlier?.resultWidth || !earlier.resultHeight || !earlier.inputWidth || !earlier.inputHeight) return false;
    const format = earlier.resultFormat ?? 'png';
    const from = jobFiles(earlier.id, format);
    const to = jobFiles(job.id, format);
    for (const which of ['preview', 'result', 'thumbnail'] as const) {
      const file = await this.store.get(from[which]);
      if (!file) return false; // deleted meanwhile: convert it again
      await this.store.put(to[which], file.bytes, file.contentType);
    }
    await this.jobs.inTransaction(async () => {
      const done = await this.jobs.succeed(job.id, {
        inputWidth: earlier.inputWidth!,
        inputHeight: earlier.inputHeight!,
        resultWidth: earlier.resultWidth!,
        resultHeight: earlier.resultHeight!,
        shrunk: earlier.shrunk,
        resultFormat: format,
        notes: [...earlier.notes.filter((note) => note !== 'repeat-credit-returned'), 'repeat-credit-returned'],
        repeat: { of: earlier.id, convertedAt: earlier.finishedAt ?? earlier.createdAt },
      });
      if (done) await this.ledger.release(chargeKey(job.id), 'Image converted before: credit returned');
    });
    this.logger.log(`Image job ${job.id} repeats job ${earlier.id}: its result copied, credit returned`);
    return true;
  }

  /**
   * Saves the progress on the job row at most about once a second, one write at a time (a report
   * arriving meanwhile waits for it; the last report is always written), never failing the job.
   */
  private progressSaver(jobId: string): (done: number, total: number) => void {
    let last = 0;
    let writing = false;
    let waiting: [number, number] | null = null;
    const write = (done: number, total: number) => {
      last = Date.now();
      writing = true;
      this.jobs
        .saveProgress(jobId, done, total)
        .catch((error: unknown) => this.logger.warn({ err: error }, `Image job ${jobId}: progress not saved`))
        .finally(() => {
          writing = false;
          const next = waiting;
          waiting = null;
          if (next) write(...next);
        });
    };
    return (done, total) => {
      if (Date.now() - last < PROGRESS_EVERY_MS && done < total) return;
      if (writing) waiting = [done, total];
      else write(done, total);
    };
  }

  /**
   * At start with the embedded database and no Redis: every unfinished job runs again, the one
   * converting when the process died too. The DATA_DIR lock means no other process can own them.
   */
  async resumeAfterRestart(): Promise<number> {
    const unfinished = await this.jobs.unfinishedBefore(new Date(), 500);
    for (const id of unfinished) {
      const job = await this.jobs.findById(id);
      if (job) await this.service.enqueue(job);
    }
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
  /** A job's place in the fair queue, for the relay's hand-overs. */
  async queuePriority(jobId: string): Promise<number | undefined> {
    return (await this.jobs.findById(jobId))?.queuePriority;
  }

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
      for (const key of allJobFileKeys(id)) await this.store.delete(key);
      await this.jobs.markFilesDeleted(id);
    }
    return { lost: lost.length, deleted: expired.length };
  }
}
