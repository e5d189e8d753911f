import type { ImageSizePlan } from 'src/contracts/images';
import { CONVERSIONS, type ConversionId } from './conversions';
import { DEFAULT_CPU_SECONDS_PER_MEGAPIXEL as CPU_SECONDS_PER_MP } from './queue-estimate';

/**
 * The work of a conversion in CPU seconds per output megapixel: the same measured figures as the
 * queue estimate's (DEFAULT_CPU_SECONDS_PER_MEGAPIXEL). The 1x clean-up runs CUnet on every input
 * pixel at full size: counted as four times AI 2x's figure (its output is the input, not four times it).
 */
const CLEAN_UP_FACTOR = 4;
/** A slower CPU than the bench's, a busy machine, a worker sharing its cores: the deadline is this many times the estimate. */
const SAFETY_FACTOR = 6;
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
    return outputMp * (plan.passes === 0 ? CLEAN_UP_FACTOR * CPU_SECONDS_PER_MP['ai-2x'] : CPU_SECONDS_PER_MP[conversion]);
  }

  deadlineMs(conversion: ConversionId, plan: ImageSizePlan): number {
    const ms = (ConversionBudget.cpuSeconds(conversion, plan) / this.threads) * SAFETY_FACTOR * 1000;
    return Math.round(Math.min(MAX_DEADLINE_MS, Math.max(MIN_DEADLINE_MS, ms)));
  }
}
