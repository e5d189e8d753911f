import { Injectable } from '@nestjs/common';
import { SqlRunner } from 'src/platform/database/sql-runner';
import type { ConversionId } from '../../domain/conversions';
import type { ImageJobNote, ImageOptions } from 'src/contracts/images';
import type { ImageJob, ImageJobStatus, ResultFormat } from '../../domain/image-job';
import { MIN_MEGAPIXELS, type QueuedWork, type RecentRates } from '../../domain/queue-estimate';
import { ImageJobRepository, type ImageJobOutcome, type NewImageJob, type RepeatKey, type UnfinishedStanding } from '../../domain/image-job-repository.port';

interface Row {
  id: string;
  user_id: string;
  conversion: ConversionId;
  source: ImageJob['source'];
  source_url: string | null;
  status: ImageJobStatus;
  error_code: string | null;
  error_message: string | null;
  input_width: number | null;
  input_height: number | null;
  result_width: number | null;
  result_height: number | null;
  shrunk: boolean;
  options: ImageOptions;
  input_sha256: string | null;
  result_format: ResultFormat | null;
  progress_done: number | null;
  progress_total: number | null;
  notes: ImageJobNote[];
  repeat_of: string | null;
  repeat_converted_at: string | Date | null;
  queue_priority: number;
  attempts: number;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
  files_deleted_at: string | Date | null;
}

const date = (value: string | Date | null) => (value === null ? null : new Date(value));

const toJob = (row: Row): ImageJob => ({
  id: row.id,
  userId: row.user_id,
  conversion: row.conversion,
  source: row.source,
  sourceUrl: row.source_url,
  status: row.status,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  inputWidth: row.input_width,
  inputHeight: row.input_height,
  resultWidth: row.result_width,
  resultHeight: row.result_height,
  shrunk: row.shrunk,
  options: row.options,
  inputSha256: row.input_sha256,
  resultFormat: row.result_format,
  progressDone: row.progress_done,
  progressTotal: row.progress_total,
  notes: row.notes,
  repeatOf: row.repeat_of,
  repeatConvertedAt: date(row.repeat_converted_at),
  queuePriority: row.queue_priority,
  attempts: row.attempts,
  createdAt: new Date(row.created_at),
  startedAt: date(row.started_at),
  finishedAt: date(row.finished_at),
  filesDeletedAt: date(row.files_deleted_at),
});

/**
 * A job's output megapixels: its result's once it succeeded, else its planned size (uploads from
 * submission, URL jobs once fetched); null for neither: the estimate counts it as a typical job.
 */
const OUTPUT_MEGAPIXELS = `coalesce((result_width::float8 * result_height) / 1e6, planned_megapixels::float8)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Image jobs in PostgreSQL, in plain SQL: each state change is one conditional UPDATE. */
@Injectable()
export class PostgresImageJobRepository extends ImageJobRepository {
  constructor(private readonly db: SqlRunner) {
    super();
  }

  inTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async lockUser(userId: string): Promise<void> {
    // Transaction-scoped: released at commit or rollback.
    await this.db.query(`select pg_advisory_xact_lock(hashtextextended('image-jobs:' || ?, 0))`, [userId]);
  }

  async unfinishedStanding(userId: string): Promise<UnfinishedStanding> {
    const [row] = await this.db.query<{ n: string; highest: number | null }>(
      `select count(*) as n, max(queue_priority) as highest from image_jobs where user_id = ? and status in ('queued', 'running')`,
      [userId],
    );
    return { unfinished: Number(row?.n ?? 0), highestPriority: row?.highest ?? null };
  }

  async countSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`select count(*) as n from image_jobs where user_id = ? and created_at >= ?`, [userId, since]);
    return Number(row?.n ?? 0);
  }

  async create(job: NewImageJob): Promise<ImageJob> {
    const [row] = await this.db.query<Row>(
      `insert into image_jobs (id, user_id, conversion, source, source_url, status, options, input_sha256, planned_megapixels, queue_priority)
       values (?, ?, ?, ?, ?, 'queued', ?::jsonb, ?, ?, ?) returning *`,
      [job.id, job.userId, job.conversion, job.source, job.sourceUrl, JSON.stringify(job.options), job.inputSha256, job.plannedMegapixels, job.queuePriority],
    );
    return toJob(row!);
  }

  async findById(id: string): Promise<ImageJob | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.db.query<Row>(`select * from image_jobs where id = ?`, [id]);
    return row ? toJob(row) : null;
  }

  async listForUser(userId: string, page: number, pageSize: number): Promise<{ items: ImageJob[]; total: number }> {
    const rows = await this.db.query<Row & { total: string }>(
      `select *, count(*) over () as total from image_jobs where user_id = ? order by created_at desc, id desc limit ? offset ?`,
      [userId, pageSize, (page - 1) * pageSize],
    );
    const total = rows[0] ? Number(rows[0].total) : await this.countAll(userId);
    return { items: rows.map(toJob), total };
  }

  async start(id: string): Promise<ImageJob | null> {
    const [row] = await this.db.query<Row>(
      `update image_jobs set status = 'running', started_at = now(), attempts = attempts + 1
        where id = ? and status in ('queued', 'running') returning *`,
      [id],
    );
    return row ? toJob(row) : null;
  }

  async succeed(id: string, outcome: ImageJobOutcome): Promise<boolean> {
    const rows = await this.db.query(
      `update image_jobs set status = 'succeeded', finished_at = now(), input_width = ?, input_height = ?, result_width = ?, result_height = ?, shrunk = ?,
              result_format = ?, notes = ?::jsonb, repeat_of = ?, repeat_converted_at = ?
        where id = ? and status in ('queued', 'running') returning id`,
      [
        outcome.inputWidth,
        outcome.inputHeight,
        outcome.resultWidth,
        outcome.resultHeight,
        outcome.shrunk,
        outcome.resultFormat,
        JSON.stringify(outcome.notes),
        outcome.repeat?.of ?? null,
        outcome.repeat?.convertedAt ?? null,
        id,
      ],
    );
    return rows.length > 0;
  }

  async findRepeat(key: RepeatKey, statuses: readonly ('queued' | 'running' | 'succeeded')[]): Promise<ImageJob | null> {
    if (statuses.length === 0) return null;
    // jsonb equality compares values, not spelling: the options as the schema normalised them.
    const [row] = await this.db.query<Row>(
      `select * from image_jobs
        where user_id = ? and input_sha256 = ? and conversion = ? and options = ?::jsonb and created_at >= ?
          and status in (${statuses.map(() => '?').join(', ')}) and (status <> 'succeeded' or files_deleted_at is null)
          and (?::uuid is null or id <> ?::uuid)
        order by created_at desc, id desc limit 1`,
      [key.userId, key.inputSha256, key.conversion, JSON.stringify(key.options), key.since, ...statuses, key.except ?? null, key.except ?? null],
    );
    return row ? toJob(row) : null;
  }

  async recordInput(id: string, inputSha256: string): Promise<void> {
    await this.db.query(`update image_jobs set input_sha256 = ? where id = ?`, [inputSha256, id]);
  }

  async recordPlan(id: string, megapixels: number): Promise<void> {
    await this.db.query(`update image_jobs set planned_megapixels = ? where id = ?`, [megapixels, id]);
  }

  async saveProgress(id: string, done: number, total: number): Promise<void> {
    await this.db.query(`update image_jobs set progress_done = ?, progress_total = ? where id = ? and status = 'running'`, [done, total, id]);
  }

  async fail(id: string, error: { code: string; message: string }): Promise<boolean> {
    const rows = await this.db.query(
      `update image_jobs set status = 'failed', finished_at = now(), error_code = ?, error_message = ?
        where id = ? and status in ('queued', 'running') returning id`,
      [error.code.slice(0, 60), error.message.slice(0, 300), id],
    );
    return rows.length > 0;
  }

  // --- The queue estimate's figures (queue-estimate.ts): the queue ahead, and recent seconds per output megapixel.

  async queueAhead(job: ImageJob | null): Promise<{ mine: QueuedWork | null; ahead: QueuedWork[] }> {
    // Running jobs (all of them, whoever's) and the queued ones the fair queue runs before this one,
    // in its order (fair-queue.ts): by priority, then as they came; a job submitted now comes at
    // priority 1 (a user with nothing waiting), after every job of priority 1 queued already.
    const rows = await this.db.query<{ id: string; conversion: ConversionId; running_for: number | null; megapixels: number | null }>(
      `select id, conversion, ${OUTPUT_MEGAPIXELS} as megapixels,
              case when status = 'running' then extract(epoch from now() - started_at) end as running_for
         from image_jobs
        where status = 'running'
           or (status = 'queued' and (case when ?::uuid is null then queue_priority <= 1 else (queue_priority, created_at, id) < (?, ?, ?) end))
        order by status = 'running' desc, queue_priority, created_at, id`,
      [job?.id ?? null, job?.queuePriority ?? null, job?.createdAt ?? null, job?.id ?? null],
    );
    const work = (row: (typeof rows)[number]): QueuedWork => ({
      conversion: row.conversion,
      megapixels: row.megapixels == null ? null : Number(row.megapixels),
      runningFor: row.running_for == null ? null : Number(row.running_for),
    });
    const mine = job ? rows.find((row) => row.id === job.id) : undefined;
    return { mine: mine ? work(mine) : null, ahead: rows.filter((row) => row.id !== job?.id).map(work) };
  }

  async recentDurations(conversion: ConversionId): Promise<RecentRates | null> {
    const [row] = await this.db.query<{ low: number | null; typical: number | null; high: number | null; megapixels: number | null; jobs: string }>(
      `select percentile_cont(0.25) within group (order by per_mp) as low,
              percentile_cont(0.5) within group (order by per_mp) as typical,
              percentile_cont(0.9) within group (order by per_mp) as high,
              percentile_cont(0.5) within group (order by megapixels) as megapixels,
              count(*) as jobs
         from (select extract(epoch from finished_at - started_at) / greatest(megapixels, ?) as per_mp, megapixels
                 from (select finished_at, started_at, ${OUTPUT_MEGAPIXELS} as megapixels from image_jobs
                        where conversion = ? and status = 'succeeded' and started_at is not null and result_width is not null
                        order by finished_at desc limit 20) last) recent`,
      [MIN_MEGAPIXELS, conversion],
    );
    if (row?.typical == null) return null;
    return { perMegapixel: { low: Number(row.low), typical: Number(row.typical), high: Number(row.high) }, megapixels: Number(row.megapixels), jobs: Number(row.jobs) };
  }

  // --- End of the queue estimate's figures.

  async queuedBefore(before: Date, limit: number): Promise<string[]> {
    return this.ids(`status = 'queued' and created_at < ?`, [before], limit);
  }

  async runningSince(before: Date, limit: number): Promise<string[]> {
    return this.ids(`status = 'running' and started_at < ?`, [before], limit);
  }

  async unfinishedBefore(before: Date, limit: number): Promise<string[]> {
    // Since it was accepted, or since its last attempt started: a long conversion (its deadline grows
    // with the work) that waited its turn in a busy queue is not lost while it runs.
    return this.ids(`status in ('queued', 'running') and coalesce(started_at, created_at) < ?`, [before], limit);
  }

  async filesOlderThan(before: Date, limit: number): Promise<string[]> {
    return this.ids(`files_deleted_at is null and created_at < ? and status in ('succeeded', 'failed')`, [before], limit);
  }

  async markFilesDeleted(id: string): Promise<void> {
    await this.db.query(`update image_jobs set files_deleted_at = now() where id = ?`, [id]);
  }

  private async ids(where: string, params: unknown[], limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`select id from image_jobs where ${where} order by created_at limit ?`, [...params, limit]);
    return rows.map((row) => row.id);
  }

  private async countAll(userId: string): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`select count(*) as n from image_jobs where user_id = ?`, [userId]);
    return Number(row?.n ?? 0);
  }
}
