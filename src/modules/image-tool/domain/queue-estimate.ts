import type { ConversionId } from './conversions';

/** How long recent jobs of a conversion took, in seconds: quick, typical and slow. */
export interface DurationSpread {
  low: number;
  typical: number;
  high: number;
}

export interface QueueSnapshot {
  /** The job itself: its conversion, and how long it has run (running) or null (queued). */
  mine: { conversion: ConversionId; runningFor: number | null };
  /** Every job that starts before it: those running now (with how long they have run) and those queued ahead. */
  ahead: { conversion: ConversionId; runningFor: number | null }[];
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
 * When a job will be done, from what is ahead of it and how long such jobs took lately. The work
 * still to do ahead (each running job's remaining time, each queued job's whole time) is shared by
 * the slots (live workers), then the job's own time follows. Computed three times, with quick,
 * typical and slow durations, so the page can show a range. Null when a conversion ahead has no
 * history yet, or no worker is alive.
 */
export function estimateWait(snapshot: QueueSnapshot, spread: (conversion: ConversionId) => DurationSpread | null): WaitEstimate | null {
  if (snapshot.slots < 1) return null;
  const figures = { low: 0, typical: 0, high: 0 };
  for (const key of ['low', 'typical', 'high'] as const) {
    let ahead = 0;
    for (const job of snapshot.ahead) {
      const duration = spread(job.conversion)?.[key];
      if (duration === undefined) return null;
      // A running job that overstays its figure still needs a moment: never less than a tenth of it.
      ahead += job.runningFor === null ? duration : Math.max(duration / 10, duration - job.runningFor);
    }
    const own = spread(snapshot.mine.conversion)?.[key];
    if (own === undefined) return null;
    const mine = snapshot.mine.runningFor === null ? own : Math.max(own / 10, own - snapshot.mine.runningFor);
    // The work ahead spreads over the slots; with fewer jobs ahead than slots, this one starts at once.
    const wait = snapshot.ahead.length < snapshot.slots ? 0 : ahead / snapshot.slots;
    figures[key] = Math.round((wait + mine) * 10) / 10;
  }
  return { position: snapshot.ahead.length, ...figures };
}
