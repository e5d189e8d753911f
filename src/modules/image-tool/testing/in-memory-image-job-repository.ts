import { DEFAULT_IMAGE_OPTIONS } from 'src/contracts/images';
import type { ConversionId } from '../domain/conversions';
import { ImageJob } from '../domain/image-job';
import { ImageJobRepository, type ImageJobOutcome, type NewImageJob, type RepeatKey } from '../domain/image-job-repository.port';
import type { RecentRates } from '../domain/queue-estimate';

/**
 * Image jobs as rows in memory, for unit specs: a failed transaction rolls back its new rows and
 * the ledger's changes, as the database transaction the ledger joins does. The SQL is proven by
 * test/images.e2e-spec.ts.
 */
export class InMemoryImageJobRepository extends ImageJobRepository {
  readonly rows: ImageJob[] = [];
  readonly progress: [string, number, number][] = [];
  /** `ledger`: the in-memory ledger (src/modules/credits/testing), whose snapshot a failed transaction restores. */
  constructor(private readonly ledger?: { snapshot(): () => void }) {
    super();
  }
  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const before = this.rows.length;
    const restoreLedger = this.ledger?.snapshot();
    try {
      return await work();
    } catch (error) {
      this.rows.splice(before);
      restoreLedger?.();
      throw error;
    }
  }
  async lockUser() {}
  async unfinishedStanding(userId: string) {
    const unfinished = this.rows.filter((j) => j.userId === userId && (j.status === 'queued' || j.status === 'running'));
    return { unfinished: unfinished.length, highestPriority: unfinished.length ? Math.max(...unfinished.map((j) => j.queuePriority)) : null };
  }
  async countSince(userId: string, since: Date) {
    return this.rows.filter((j) => j.userId === userId && j.createdAt >= since).length;
  }
  async create(job: NewImageJob) {
    const row = Object.assign(new ImageJob(), { options: DEFAULT_IMAGE_OPTIONS, inputSha256: null }, job, {
      status: 'queued' as const,
      errorCode: null,
      errorMessage: null,
      inputWidth: null,
      inputHeight: null,
      resultWidth: null,
      resultHeight: null,
      shrunk: false,
      resultFormat: null,
      progressDone: null,
      progressTotal: null,
      notes: [],
      repeatOf: null,
      repeatConvertedAt: null,
      attempts: 0,
      createdAt: new Date(),
      startedAt: null,
      finishedAt: null,
      filesDeletedAt: null,
    });
    this.rows.push(row);
    return { ...row };
  }
  async findById(id: string) {
    const row = this.rows.find((j) => j.id === id);
    return row ? { ...row } : null;
  }
  async listForUser(userId: string, page: number, pageSize: number) {
    const mine = this.rows.filter((j) => j.userId === userId).reverse();
    return { items: mine.slice((page - 1) * pageSize, page * pageSize), total: mine.length };
  }
  async start(id: string) {
    const row = this.rows.find((j) => j.id === id && (j.status === 'queued' || j.status === 'running'));
    if (!row) return null;
    Object.assign(row, { status: 'running', startedAt: new Date(), attempts: row.attempts + 1 });
    return { ...row };
  }
  async succeed(id: string, outcome: ImageJobOutcome) {
    const row = this.rows.find((j) => j.id === id && (j.status === 'queued' || j.status === 'running'));
    if (!row) return false;
    const { repeat, ...rest } = outcome;
    Object.assign(row, rest, { status: 'succeeded', finishedAt: new Date(), repeatOf: repeat?.of ?? null, repeatConvertedAt: repeat?.convertedAt ?? null });
    return true;
  }
  async fail(id: string, error: { code: string; message: string }) {
    const row = this.rows.find((j) => j.id === id && (j.status === 'queued' || j.status === 'running'));
    if (!row) return false;
    Object.assign(row, { status: 'failed', finishedAt: new Date(), errorCode: error.code, errorMessage: error.message });
    return true;
  }
  async findRepeat(key: RepeatKey, statuses: readonly ('queued' | 'running' | 'succeeded')[]) {
    const same = (a: object, b: object) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
    const found = this.rows
      .filter(
        (j) =>
          j.userId === key.userId &&
          j.inputSha256 === key.inputSha256 &&
          j.conversion === key.conversion &&
          same(j.options, key.options) &&
          j.createdAt >= key.since &&
          j.id !== key.except &&
          (statuses as readonly string[]).includes(j.status) &&
          !(j.status === 'succeeded' && j.filesDeletedAt),
      )
      .at(-1);
    return found ? { ...found } : null;
  }
  async recordInput(id: string, inputSha256: string) {
    const row = this.rows.find((j) => j.id === id);
    if (row) row.inputSha256 = inputSha256;
  }
  readonly plans = new Map<string, number>();
  async recordPlan(id: string, megapixels: number) {
    this.plans.set(id, megapixels);
  }
  async saveProgress(id: string, done: number, total: number) {
    this.progress.push([id, done, total]);
    const row = this.rows.find((j) => j.id === id && j.status === 'running');
    if (row) Object.assign(row, { progressDone: done, progressTotal: total });
  }
  async queueAhead(job: ImageJob | null) {
    // As the fair queue runs them: by priority, then as they came (a job submitted now at priority 1).
    const before = (j: ImageJob) => (job ? j.queuePriority < job.queuePriority || (j.queuePriority === job.queuePriority && this.rows.indexOf(j) < this.rows.findIndex((r) => r.id === job.id)) : j.queuePriority <= 1);
    const ahead = this.rows.filter((j) => j.id !== job?.id && (j.status === 'running' || (j.status === 'queued' && before(j))));
    return { mine: null, ahead: ahead.map((j) => ({ conversion: j.conversion, megapixels: null, runningFor: j.status === 'running' ? 0 : null })) };
  }
  // Seconds per output megapixel of recent jobs (1 MP typical): a queued job of unknown size counts as 12 s.
  recentDurations = jest.fn(async (_conversion: ConversionId): Promise<RecentRates | null> => ({ perMegapixel: { low: 10, typical: 12, high: 15 }, megapixels: 1, jobs: 20 }));
  async queuedBefore() {
    return [];
  }
  async runningSince() {
    return [];
  }
  async unfinishedBefore() {
    return [];
  }
  async filesOlderThan() {
    return [];
  }
  async markFilesDeleted() {}
}
