import type { ImageSizePlan } from 'src/contracts/images';
import { CONVERSIONS, type ConversionId } from './conversions';

/**
 * CPU seconds per megapixel of network output on one core (the engine's measurements, 2026-11):
 * CUnet 2x 5.4, upconv_7 2x 3.2, CUnet 4x 6.8 (both passes, per output MP), the classic styles 0.9.
 * The 1x clean-up runs CUnet on every input pixel at full size: counted as four times CUnet 2x's
 * figure per output MP (its output is the input, not four times it).
 */
export const CPU_SECONDS_PER_MP: Record<ConversionId, number> = { 'ai-2x': 5.4, 'ai-2x-fast': 3.2, 'ai-4x': 6.8, sketch: 0.9, cartoon: 0.9, enhance: 0.9 };
const CLEAN_UP_CPU_SECONDS_PER_MP = 4 * 5.4;
/** Slower CPUs than the bench's, a busy machine, decoding and encoding: the deadline is this many times the estimate. */
const SAFETY_FACTOR = 3;
/** A conversion always has this long. */
export const MIN_DEADLINE_MS = 60_000;
/** And never longer: the housekeeping takes a job unfinished after 30 minutes for lost. */
export const MAX_DEADLINE_MS = 20 * 60_000;

/**
 * How long a conversion may take, from its plan: the work grows with the pixels the network
 * produces (2^passes x the input it runs on), shared by `threads` inference threads.
 */
export class ConversionBudget {
  constructor(private readonly threads = 1) {
    if (!(threads >= 1)) throw new RangeError(`threads must be at least 1, not ${threads}`);
  }

  /** The estimate on one core in CPU seconds, before threads and the safety factor. */
  static cpuSeconds(conversion: ConversionId, plan: ImageSizePlan): number {
    if (CONVERSIONS[conversion].kind === 'classic') return ((plan.result.width * plan.result.height) / 1e6) * CPU_SECONDS_PER_MP[conversion];
    const factor = 2 ** plan.passes;
    const outputMp = (plan.input.width * factor * plan.input.height * factor) / 1e6;
    return outputMp * (plan.passes === 0 ? CLEAN_UP_CPU_SECONDS_PER_MP : CPU_SECONDS_PER_MP[conversion]);
  }

  deadlineMs(conversion: ConversionId, plan: ImageSizePlan): number {
    const ms = (ConversionBudget.cpuSeconds(conversion, plan) / this.threads) * SAFETY_FACTOR * 1000;
    return Math.round(Math.min(MAX_DEADLINE_MS, Math.max(MIN_DEADLINE_MS, ms)));
  }
}
