import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { Paged } from 'src/contracts/billing';
import { planImageSize, refusesEnlargement, type ImageConversion, type ImageEstimate, type ImageJobView, type ImageOptions } from 'src/contracts/images';
import { CreditLedger } from 'src/modules/credits';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import type { ConversionId } from '../domain/conversions';
import { allJobFileKeys, chargeKey, CREDITS_PER_IMAGE, isFinished, jobFiles, MAX_SUBMISSIONS_PER_MINUTE, queueJobId, REPEAT_WINDOW_MS, RESULT_CONTENT_TYPES, type ImageJob } from '../domain/image-job';
import { ImageJobRepository } from '../domain/image-job-repository.port';
import { ImageCodec } from '../domain/image-codec.port';
import { ImageStore } from '../domain/image-store.port';
import { queuePriority } from '../domain/fair-queue';
import { estimateWait, ratesOrDefault, type QueuedWork, type RecentRates } from '../domain/queue-estimate';
import { ImageJobNotFoundError, TooManySubmissionsError, TooManyUnfinishedJobsError, WouldNotEnlargeError } from '../domain/image-tool.errors';

const PAGE_SIZE = 20;
/** Recent durations are percentiles over the last jobs: recomputed at most this often, not on every poll. */
const NO_HISTORY_TTL_MS = 2_000;

export const CONVERSION_NAMES: Record<ConversionId, string> = {
  'ai-2x': 'AI upscale 2x',
  'ai-2x-fast': 'AI upscale 2x (fast)',
  'ai-4x': 'AI upscale 4x',
  sketch: 'Pencil sketch',
  cartoon: 'Cartoon',
  enhance: 'Classic 2x, sharpened',
};

export type ImageSubmission = { conversion: ConversionId; options: ImageOptions } & ({ upload: Buffer } | { url: string });

/** A submission's answer: a new job (202), or an earlier one answering it (200, nothing held). */
export interface SubmissionAnswer {
  job: ImageJobView;
  /** An earlier job of the same image and settings answered it: `repeat` when it had finished, none while it runs. */
  earlier: boolean;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The web side of the image tool: accepts a job (its credit held, its input stored and its row
 * written in one transaction, then queued), and shows users their jobs and files. The conversion
 * itself runs where the jobs run (ImageConversionRunner).
 */
@Injectable()
export class ImageToolService {
  private readonly logger = new Logger('Images');
  private readonly durations = new Map<ConversionId, { rates: RecentRates | null; until: number }>();

  constructor(
    private readonly jobs: ImageJobRepository,
    private readonly ledger: CreditLedger,
    private readonly store: ImageStore,
    private readonly codec: ImageCodec,
    private readonly queue: JobQueue,
    private readonly config: AppConfig,
    private readonly workers: LiveWorkers,
  ) {}

  /**
   * Accepts a job, or answers with an earlier one: an upload of the same bytes with the same
   * conversion and options by the same user within 24 hours is answered by that job when it
   * succeeded (its files still kept; `repeat`, no credit) or is still queued or running (followed
   * like a new one; its own credit is the only one held). URL jobs' bytes are known only where the
   * jobs run: the runner does the same there, releasing the hold (ImageConversionRunner).
   */
  async submit(userId: string, submission: ImageSubmission): Promise<SubmissionAnswer> {
    const { conversion, options } = submission;
    let inputSha256: string | null = null;
    let plannedMegapixels: number | null = null;
    if ('upload' in submission) {
      // A bad upload, or an enlargement that would come back smaller, is refused from its header
      // before anything is held or stored.
      const header = await this.codec.probe(submission.upload);
      if (refusesEnlargement(header.width, header.height, conversion, options)) throw new WouldNotEnlargeError(header.width, header.height);
      inputSha256 = sha256(submission.upload);
      const { result } = planImageSize(header.width, header.height, conversion, options);
      plannedMegapixels = (result.width * result.height) / 1e6;
    }
    const id = randomUUID();
    const files = jobFiles(id);
    let stored = false;
    try {
      const created = await this.jobs.inTransaction(async () => {
        await this.jobs.lockUser(userId);
        if (inputSha256) {
          const key = { userId, inputSha256, conversion, options, since: new Date(Date.now() - REPEAT_WINDOW_MS) };
          const earlier = await this.jobs.findRepeat(key, ['succeeded', 'queued', 'running']);
          if (earlier) return { earlier };
        }
        // The balance first: a user with no credits is told how to get some (402, the low-credit
        // offer), never "too many at once". A refusal below rolls the hold back with the rest.
        await this.ledger.hold({ userId, amount: CREDITS_PER_IMAGE, idempotencyKey: chargeKey(id), description: `Image: ${CONVERSION_NAMES[conversion]}` });
        const max = this.config.images.maxUnfinished;
        const standing = await this.jobs.unfinishedStanding(userId);
        if (standing.unfinished >= max) throw new TooManyUnfinishedJobsError(max);
        if ((await this.jobs.countSince(userId, new Date(Date.now() - 60_000))) >= MAX_SUBMISSIONS_PER_MINUTE) throw new TooManySubmissionsError();
        if ('upload' in submission) {
          await this.store.put(files.input, submission.upload, 'application/octet-stream');
          stored = true;
        }
        const job = await this.jobs.create({
          id,
          userId,
          conversion,
          source: 'upload' in submission ? 'upload' : 'url',
          sourceUrl: 'url' in submission ? submission.url : null,
          options,
          inputSha256,
          plannedMegapixels,
          queuePriority: queuePriority(standing),
        });
        return { job };
      });
      const { earlier } = created;
      if (earlier) {
        const view = await this.view(earlier);
        if (earlier.status !== 'succeeded') return { job: view, earlier: true };
        return { job: { ...view, credits: 0, repeat: { converted_at: (earlier.finishedAt ?? earlier.createdAt).toISOString() } }, earlier: true };
      }
      await this.enqueue(created.job!);
      return { job: await this.view(created.job!), earlier: false };
    } catch (error) {
      if (stored) await this.store.delete(files.input).catch(() => undefined);
      throw error;
    }
  }

  /** Queues a job whose row exists, at its place in the fair queue; if the queue is down, the relay queues it later. */
  async enqueue({ id, queuePriority: priority }: Pick<ImageJob, 'id' | 'queuePriority'>): Promise<void> {
    try {
      await this.queue.enqueue('image.convert', { jobId: id }, { jobId: queueJobId(id), priority });
    } catch (error) {
      this.logger.warn({ err: error }, `Image job ${id} not queued now: the relay queues it later`);
    }
  }

  async job(userId: string, id: string): Promise<ImageJobView> {
    return this.view(await this.own(userId, id));
  }

  async list(userId: string, page: number): Promise<Paged<ImageJobView>> {
    const { items, total } = await this.jobs.listForUser(userId, page, PAGE_SIZE);
    return { items: await Promise.all(items.map((job) => this.view(job, false))), page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), total };
  }

  /** A file of the user's own job, while it is kept. */
  async file(userId: string, id: string, which: 'preview' | 'result' | 'thumbnail'): Promise<{ bytes: Buffer; contentType: string; job: ImageJob }> {
    const job = await this.own(userId, id);
    if (job.status !== 'succeeded' || job.filesDeletedAt) throw new ImageJobNotFoundError();
    const found = await this.store.get(jobFiles(job.id, job.resultFormat)[which]);
    if (!found) throw new ImageJobNotFoundError();
    // The type is ours, from the job's format, never the stored one's word alone.
    const contentType = which === 'preview' ? 'image/png' : which === 'thumbnail' ? 'image/jpeg' : RESULT_CONTENT_TYPES[job.resultFormat ?? 'png'];
    return { bytes: found.bytes, contentType, job };
  }

  // --- The queue estimate (domain/queue-estimate.ts): seconds per output megapixel of recent jobs.

  /**
   * What converting a `width` x `height` image would give and take if submitted now (the page asks
   * before the credit is spent): the result's size by the one size rule, and when it would be done,
   * behind every job running or queued, shared by the live workers.
   */
  async estimate(conversion: ImageConversion, width: number, height: number, options: Pick<ImageOptions, 'scale' | 'width'>): Promise<ImageEstimate> {
    const plan = planImageSize(width, height, conversion, options);
    const megapixels = (plan.result.width * plan.result.height) / 1e6;
    const { estimate, slots, basis, ahead } = await this.wait(null, { conversion, megapixels, runningFor: null });
    return {
      result: plan.result,
      seconds: estimate && { low: estimate.low, typical: estimate.typical, high: estimate.high },
      basis: estimate ? basis : null,
      queue: { ahead, workers: slots },
    };
  }

  /**
   * Where a job stands: every job ahead of it (running ones included), and when it will be done,
   * from recent rates with the work ahead shared by the live workers (the heartbeats; one
   * without Redis, where this process converts one image at a time).
   */
  private async standing(job: ImageJob): Promise<NonNullable<ImageJobView['queue']>> {
    const known = job.resultWidth && job.resultHeight ? (job.resultWidth * job.resultHeight) / 1e6 : null;
    const { estimate, ahead } = await this.wait(job, { conversion: job.conversion, megapixels: known, runningFor: null });
    return {
      position: ahead,
      estimate_seconds: estimate?.typical ?? null,
      estimate_range: estimate ? { low: estimate.low, high: estimate.high } : null,
    };
  }

  /** The estimate of `job` (null: one submitted now) behind the queue, with the workers alive and where its rates came from. */
  private async wait(job: ImageJob | null, fallback: QueuedWork) {
    const [queue, workers] = await Promise.all([this.jobs.queueAhead(job), this.workers.count()]);
    const slots = this.config.redis.url ? (workers ?? 0) : 1;
    const mine = queue.mine ? { ...queue.mine, megapixels: queue.mine.megapixels ?? fallback.megapixels } : fallback;
    const conversions = [...new Set([mine.conversion, ...queue.ahead.map((a) => a.conversion)])];
    const recent = new Map(await Promise.all(conversions.map(async (c) => [c, await this.recentRates(c)] as const)));
    const rates = (c: ConversionId) => ratesOrDefault(c, recent.get(c) ?? null);
    const estimate = estimateWait({ mine, ahead: queue.ahead, slots }, rates);
    const basis: 'recent' | 'default' = rates(mine.conversion).jobs > 0 ? 'recent' : 'default';
    return { estimate, slots, basis, ahead: queue.ahead.length };
  }

  /** Browsers poll a job every second while it waits: recent rates are cached briefly. */
  private async recentRates(conversion: ConversionId): Promise<RecentRates | null> {
    const cached = this.durations.get(conversion);
    if (cached && cached.until > Date.now()) return cached.rates;
    const rates = await this.jobs.recentDurations(conversion).catch(() => null);
    // No history yet (or the database was busy): asked again soon, so the first jobs' figures show at once.
    this.durations.set(conversion, { rates, until: Date.now() + (rates ? this.config.images.estimateCacheMs : Math.min(NO_HISTORY_TTL_MS, this.config.images.estimateCacheMs)) });
    return rates;
  }

  // --- End of the queue estimate.

  private async own(userId: string, id: string): Promise<ImageJob> {
    const job = await this.jobs.findById(id);
    if (!job || job.userId !== userId) throw new ImageJobNotFoundError();
    return job;
  }

  private async view(job: ImageJob, withQueue = true): Promise<ImageJobView> {
    let queue: ImageJobView['queue'] = null;
    if (!isFinished(job.status)) {
      queue = withQueue ? await this.standing(job) : { position: 0, estimate_seconds: null, estimate_range: null };
    }
    return {
      id: job.id,
      conversion: job.conversion,
      source: job.source,
      status: job.status,
      error: job.errorCode ? { code: job.errorCode, message: job.errorMessage ?? '' } : null,
      options: job.options,
      input: job.inputWidth && job.inputHeight ? { width: job.inputWidth, height: job.inputHeight, shrunk: job.shrunk } : null,
      result: job.resultWidth && job.resultHeight ? { width: job.resultWidth, height: job.resultHeight } : null,
      result_format: job.status === 'succeeded' ? (job.resultFormat ?? 'png') : null,
      progress: job.status === 'running' && job.progressTotal ? { done: job.progressDone ?? 0, total: job.progressTotal } : null,
      notes: job.notes,
      ...(job.repeatConvertedAt ? { repeat: { converted_at: job.repeatConvertedAt.toISOString() } } : {}),
      // A URL job answered by an earlier result had its credit returned.
      credits: job.repeatOf ? 0 : CREDITS_PER_IMAGE,
      created_at: job.createdAt.toISOString(),
      finished_at: job.finishedAt?.toISOString() ?? null,
      files: job.status === 'succeeded' && !job.filesDeletedAt,
      queue,
    };
  }

  /** Deletes the files of these jobs (a deleted account's): each file once, a missing one is no error. */
  async deleteFilesOf(jobIds: string[]): Promise<void> {
    for (const id of jobIds) for (const key of allJobFileKeys(id)) await this.store.delete(key);
  }

}

