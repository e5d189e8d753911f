import type { ConversionId, RgbImage } from './conversions';

/**
 * Converts decoded pixels. Adapters: ONNX Runtime for the AI upscalers (in a thread of its own, so
 * the process's event loop keeps answering), sharp for the classic styles (OnnxSharpImageConverter picks by the
 * conversion's kind). CPU-heavy: the image queue runs one conversion at a time per process.
 * Honours `signal` between tiles or steps (the job's deadline). The input pixels are not modified.
 */
export abstract class ImageConverter {
  abstract convert(image: RgbImage, conversion: ConversionId, signal: AbortSignal): Promise<RgbImage>;
}
