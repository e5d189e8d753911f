import type { ImageJobNote, ImageOptions } from 'src/contracts/images';
import type { ConversionId } from './conversions';
import type { ImageJob, ResultFormat } from './image-job';
import type { QueuedWork, RecentRates } from './queue-estimate';

export interface UnfinishedStanding {
  unfinished: number;
  highestPriority: number | null;
}

export interface NewImageJob {
  id: string;
  userId: string;
  conversion: ConversionId;
  source: 'upload' | 'url';
  sourceUrl: string | null;
  options: ImageOptions;
  /** Known at submission for uploads; URL jobs record it when fetched (recordInput). */
  inputSha256: string | null;
  /** The result's megapixels by the size rule, known at submission for uploads; URL jobs record it when planned (recordPlan). */
  plannedMegapixels: number | null;
  /** Its place in the image queue (`queuePriority`). */
  queuePriority: number;
}

/** What a job that succeeded made. */
export interface ImageJobOutcome {
  inputWidth: number;
  inputHeight: number;
  resultWidth: number;
  resultHeight: number;
  shrunk: boolean;
  resultFormat: ResultFormat;
  notes: ImageJobNote[];
  /** A URL job answered by an earlier job's result (copied): which, and when it finished. */
  repeat?: { of: string; convertedAt: Date };
}

/** The same image (bytes), conversion and options from the same user since `since`. */
export interface RepeatKey {
  userId: string;
  inputSha256: string;
  conversion: ConversionId;
  options: ImageOptions;
  since: Date;
  /** The job asking (a URL job in the worker) is not its own repeat. */
  except?: string;
}

/** Image jobs. Counting, inserting and the credit's hold happen in one transaction (inTransaction). */
export abstract class ImageJobRepository {
  abstract inTransaction<T>(work: () => Promise<T>): Promise<T>;
  /** Serialises a user's submissions (limits are counted, then a job is added). Inside inTransaction. */
  abstract lockUser(userId: string): Promise<void>;
  /** The user's jobs queued or running, and the highest (last) queue priority among them: `queuePriority`'s input. */
  abstract unfinishedStanding(userId: string): Promise<UnfinishedStanding>;
  abstract countSince(userId: string, since: Date): Promise<number>;
  abstract create(job: NewImageJob): Promise<ImageJob>;
  abstract findById(id: string): Promise<ImageJob | null>;
  abstract listForUser(userId: string, page: number, pageSize: number): Promise<{ items: ImageJob[]; total: number }>;
  /** Marks the job running (another attempt) unless it is finished; null when finished or missing. */
  abstract start(id: string): Promise<ImageJob | null>;
  /** Finishes a job that is not finished yet; false when it already was (a duplicate run). */
  abstract succeed(id: string, outcome: ImageJobOutcome): Promise<boolean>;
  /**
   * The newest job matching `key` that can answer it: queued, running, or succeeded with its files
   * still kept (a failed one cannot). Never another user's.
   */
  abstract findRepeat(key: RepeatKey, statuses: readonly ('queued' | 'running' | 'succeeded')[]): Promise<ImageJob | null>;
  /** A URL job's input, once fetched. */
  abstract recordInput(id: string, inputSha256: string): Promise<void>;
  /** Tiles (or steps) done of all, while the job runs: one cheap UPDATE. */
  /** The result's planned megapixels, once the runner knows the input's size (URL jobs). */
  abstract recordPlan(id: string, megapixels: number): Promise<void>;
  abstract saveProgress(id: string, done: number, total: number): Promise<void>;
  abstract fail(id: string, error: { code: string; message: string }): Promise<boolean>;
  /**
   * Every job that starts before this one (null: one submitted now): those running now (with how
   * long they have run, by the database clock) and those queued before it, each with its output
   * megapixels when known; and this one as it stands (null: submitted now).
   */
  abstract queueAhead(job: ImageJob | null): Promise<{ mine: QueuedWork | null; ahead: QueuedWork[] }>;
  /**
   * Seconds per output megapixel of the last successful jobs of this conversion (quartile, median,
   * 90th percentile), their median output megapixels and how many there were; null without any.
   */
  abstract recentDurations(conversion: ConversionId): Promise<RecentRates | null>;
  /** Queued jobs created before `before`: their queue message may be lost (Redis was down). */
  abstract queuedBefore(before: Date, limit: number): Promise<string[]>;
  /** Jobs marked running since before `before`: their job may have given up or been lost. */
  abstract runningSince(before: Date, limit: number): Promise<string[]>;
  /** Unfinished jobs accepted, or last started, before `before`: they can no longer finish (lost, stalled for good). */
  abstract unfinishedBefore(before: Date, limit: number): Promise<string[]>;
  /** Jobs whose files are older than `before` and not deleted yet. */
  abstract filesOlderThan(before: Date, limit: number): Promise<string[]>;
  abstract markFilesDeleted(id: string): Promise<void>;
}
