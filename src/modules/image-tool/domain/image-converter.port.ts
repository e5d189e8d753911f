import type { ConversionId, RgbImage } from './conversions';

/**
 * Converts decoded pixels. Adapters: ONNX Runtime for the AI upscalers, sharp for the classic
 * styles (a composite picks by the conversion's kind). CPU-heavy: call it from the worker side only.
 * Honours `signal` between tiles or steps (the job's deadline).
 */
export abstract class ImageConverter {
  abstract convert(image: RgbImage, conversion: ConversionId, signal: AbortSignal): Promise<RgbImage>;
}
