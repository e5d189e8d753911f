import type { ImageNoiseLevel, ImageSizePlan } from 'src/contracts/images';
import type { ConversionId, RgbaPlanes } from './conversions';

/** What to do to the decoded input (already shrunk to `plan.input`): the conversion, its denoising, and the exact result size. */
export interface ConversionRequest {
  conversion: ConversionId;
  plan: ImageSizePlan;
  /** Resolved (never 'auto'): the runner picks the default for the input's format. */
  noise: ImageNoiseLevel;
}

/** Progress of one conversion: tiles (AI) or steps (classic) done of all. */
export type ConversionProgress = (done: number, total: number) => void;

/**
 * Converts decoded pixels. Adapters: ONNX Runtime for the AI upscalers (on a pool of inference
 * threads, so the process's event loop keeps answering), sharp for the classic styles
 * (OnnxSharpImageConverter picks by the conversion's kind); the alpha channel is resampled to the
 * result's size beside the colour. Honours `signal` between tiles or steps (the job's deadline).
 * The input pixels are not modified. The result is exactly `plan.result` in size.
 */
export abstract class ImageConverter {
  abstract convert(image: RgbaPlanes, request: ConversionRequest, signal: AbortSignal, onProgress?: ConversionProgress): Promise<RgbaPlanes>;
}
