import type { ConversionId } from './conversions';

/**
 * Time is modelled per output megapixel: a conversion's cost grows with the pixels it writes (the
 * network runs on tiles of the result's input, the encoder on the result). Below MIN_MEGAPIXELS a
 * job's time is mostly fixed costs (decoding, encoding, a thread's start), so smaller results count
 * as that much: a 16 px sketch done in 0.1 s does not make a 12 MP one take an hour.
 */
export const MIN_MEGAPIXELS = 0.25;

/** A job's weight in the model: its output megapixels, never less than MIN_MEGAPIXELS. */
export const weightOf = (megapixels: number) => Math.max(MIN_MEGAPIXELS, megapixels);

/** Seconds per output megapixel (see weightOf) of a conversion: quick, typical and slow. */
export interface DurationSpread {
  low: number;
  typical: number;
  high: number;
}

/** What recent jobs of a conversion measured: seconds per output megapixel, and their typical output size. */
export interface RecentRates {
  perMegapixel: DurationSpread;
  /** The median output megapixels of those jobs: what a job whose result size is not known yet counts as. */
  megapixels: number;
  /** How many jobs the figures come from. */
  jobs: number;
}

/**
 * Without history (a new site, a conversion nobody ran lately), a worker's CPU seconds per output
 * megapixel end to end (decode, network, resample, encode, store), measured by `npm run bench:images`
 * on 1920x1080 inputs (AI 2x 2.44, AI 2x fast 1.37; AI 4x from its converter figure, 3.07, plus the
 * same overhead; the classic styles as measured before), shared by the threads of a worker.
 */
export const DEFAULT_CPU_SECONDS_PER_MEGAPIXEL: Record<ConversionId, number> = {
  'ai-2x': 2.5,
  'ai-2x-fast': 1.4,
  'ai-4x': 3.2,
  sketch: 0.9,
  cartoon: 0.9,
  enhance: 0.9,
};
/** The threads a worker converts with, unless known: the defaults above are divided by it. */
export const ASSUMED_WORKER_THREADS = 2;
/** The default's range: a quick run at 3/4 of it, a slow one (a busy machine) at 1.5 times. */
const DEFAULT_RANGE = { low: 0.75, high: 1.5 };
/** What a job of unknown result size counts as without history: AI 2x of a 512 px image. */
const DEFAULT_MEGAPIXELS = 1;
/** Fewer recent jobs than this: the default figures are used (a single job is no range). */
export const MIN_HISTORY_JOBS = 3;

/** The documented default rates of a conversion (no history). */
export function defaultRates(conversion: ConversionId, threads = ASSUMED_WORKER_THREADS): RecentRates {
  const typical = DEFAULT_CPU_SECONDS_PER_MEGAPIXEL[conversion] / Math.max(1, threads);
  return { perMegapixel: { low: typical * DEFAULT_RANGE.low, typical, high: typical * DEFAULT_RANGE.high }, megapixels: DEFAULT_MEGAPIXELS, jobs: 0 };
}

/** Recent figures when there are enough of them, else the defaults. */
export const ratesOrDefault = (conversion: ConversionId, recent: RecentRates | null): RecentRates =>
  recent && recent.jobs >= MIN_HISTORY_JOBS ? recent : defaultRates(conversion);

/** A job in the queue: its conversion, its output megapixels (null: not known yet) and how long it has run (null: queued). */
export interface QueuedWork {
  conversion: ConversionId;
  megapixels: number | null;
  runningFor: number | null;
}

export interface QueueSnapshot {
  /** The job itself (or the one the user is about to submit). */
  mine: QueuedWork;
  /** Every job that starts before it: those running now and those queued ahead. */
  ahead: QueuedWork[];
  /** Conversions running at once: one per live worker (each converts one image at a time). */
  slots: number;
}

export interface WaitEstimate {
  /** Jobs ahead of this one, the running ones included. */
  position: number;
  /** Seconds until it is probably done: [quick, slow], and the typical figure between them. */
  low: number;
  typical: number;
  high: number;
}

/**
 * When a job will be done, from what is ahead of it and how fast such jobs went lately, per output
 * megapixel (each job's own size). The work still to do ahead (each running job's remaining time,
 * each queued job's whole time) is shared by the slots (live workers), then the job's own time
 * follows. Computed three times, with quick, typical and slow rates, so the page can show a range.
 * Null when no worker is alive (nothing would run it).
 */
export function estimateWait(snapshot: QueueSnapshot, rates: (conversion: ConversionId) => RecentRates): WaitEstimate | null {
  if (snapshot.slots < 1) return null;
  const seconds = (job: QueuedWork, key: keyof DurationSpread) => {
    const figures = rates(job.conversion);
    const whole = figures.perMegapixel[key] * weightOf(job.megapixels ?? figures.megapixels);
    // A running job that overstays its figure still needs a moment: never less than a tenth of it.
    return job.runningFor === null ? whole : Math.max(whole / 10, whole - job.runningFor);
  };
  const figures = { low: 0, typical: 0, high: 0 };
  for (const key of ['low', 'typical', 'high'] as const) {
    const ahead = snapshot.ahead.reduce((sum, job) => sum + seconds(job, key), 0);
    // The work ahead spreads over the slots; with fewer jobs ahead than slots, this one starts at once.
    const wait = snapshot.ahead.length < snapshot.slots ? 0 : ahead / snapshot.slots;
    figures[key] = Math.round((wait + seconds(snapshot.mine, key)) * 10) / 10;
  }
  return { position: snapshot.ahead.length, ...figures };
}
