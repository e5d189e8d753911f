import type { RgbaPlanes } from '../domain/conversions';
import { ImageConverter, type ConversionProgress, type ConversionRequest } from '../domain/image-converter.port';

/**
 * The conversion for specs: blank pixels of exactly the planned size, reported in two steps.
 * `failWith` makes it throw (a fault of ours: storage, a crash); `hang` makes it wait for the
 * deadline (the signal) and fail with it, as a conversion too slow does. OnnxSharpImageConverter
 * and its engines have their own specs.
 */
export class FakeImageConverter extends ImageConverter {
  readonly requests: ConversionRequest[] = [];
  failWith?: Error;
  hang = false;

  async convert(image: RgbaPlanes, request: ConversionRequest, signal: AbortSignal, onProgress?: ConversionProgress): Promise<RgbaPlanes> {
    this.requests.push(request);
    if (this.failWith) throw this.failWith;
    if (this.hang) {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
    }
    signal.throwIfAborted();
    onProgress?.(1, 2);
    const { width, height } = request.plan.result;
    onProgress?.(2, 2);
    return { data: new Uint8Array(width * height * 3), width, height, alpha: image.alpha ? new Uint8Array(width * height).fill(255) : null };
  }
}
