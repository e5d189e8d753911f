import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONVERSIONS, type ConversionId, type RgbImage } from '../domain/conversions';
import { ImageConverter } from '../domain/image-converter.port';
import type { OnnxUpscaler } from './onnx/onnx-upscaler';
import type { SharpStyles } from './sharp/sharp-styles';

/** The ImageConverter port: the AI upscalers on ONNX Runtime, the classic styles on sharp. */
@Injectable()
export class OnnxSharpImageConverter extends ImageConverter implements OnApplicationShutdown {
  constructor(
    private readonly onnx: OnnxUpscaler,
    private readonly styles: SharpStyles,
  ) {
    super();
  }

  convert(image: RgbImage, conversion: ConversionId, signal: AbortSignal): Promise<RgbImage> {
    const spec = CONVERSIONS[conversion];
    if (spec.kind === 'ai') return this.onnx.upscale(image, spec.model, spec.passes, signal);
    return this.styles.apply(image, conversion as 'sketch' | 'cartoon' | 'enhance', signal);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.onnx.close();
  }
}
