import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONVERSIONS, modelsFor, type RgbaPlanes, type RgbImage } from '../domain/conversions';
import { ImageConverter, type ConversionProgress, type ConversionRequest } from '../domain/image-converter.port';
import type { OnnxUpscaler } from './onnx/onnx-upscaler';
import { resampleAlphaExact, resampleRgbExact } from './sharp/exact-resample';
import type { SharpStyle, SharpStyles } from './sharp/sharp-styles';

/**
 * The ImageConverter port: the AI upscalers on ONNX Runtime (one model per pass, `modelsFor`), the
 * classic styles on sharp; then the colour resampled once, aligned, to the plan's exact result
 * size, and the alpha plane from the input's size to it beside the colour.
 */
@Injectable()
export class OnnxSharpImageConverter extends ImageConverter implements OnApplicationShutdown {
  constructor(
    private readonly onnx: Pick<OnnxUpscaler, 'upscale' | 'close'>,
    private readonly styles: Pick<SharpStyles, 'apply'>,
  ) {
    super();
  }

  async convert(image: RgbaPlanes, { conversion, plan, noise }: ConversionRequest, signal: AbortSignal, onProgress?: ConversionProgress): Promise<RgbaPlanes> {
    const spec = CONVERSIONS[conversion];
    const rgb: RgbImage = { data: image.data, width: image.width, height: image.height };
    let converted: RgbImage;
    if (spec.kind === 'ai') {
      converted = await this.onnx.upscale(rgb, modelsFor(spec.arch, plan.passes, noise), signal, { onProgress });
    } else {
      onProgress?.(0, 1);
      converted = await this.styles.apply(rgb, conversion as SharpStyle, signal);
      onProgress?.(1, 1);
    }
    signal.throwIfAborted();
    const { width, height } = plan.result;
    const result = await resampleRgbExact(converted, width, height);
    const alpha = image.alpha ? resampleAlphaExact(image.alpha, image, width, height) : null;
    return { data: result.data, width, height, alpha };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.onnx.close();
  }
}
