/**
 * The conversions the image tool offers. Each costs 1 credit. AI upscaling runs a waifu2x model
 * (ONNX Runtime, CPU) `passes` times, each pass doubling the size, and bounds its input; the
 * classic styles run on sharp. Each AI conversion keeps a measured gain over bicubic
 * (`npm run bench:quality`).
 */
export const CONVERSIONS = {
  'ai-2x': { kind: 'ai', model: 'waifu2x-cunet-x2', passes: 1, scale: 2, maxInputSide: 512 },
  'ai-2x-fast': { kind: 'ai', model: 'waifu2x-upconv7-x2', passes: 1, scale: 2, maxInputSide: 512 },
  'ai-4x': { kind: 'ai', model: 'waifu2x-cunet-x2', passes: 2, scale: 4, maxInputSide: 256 },
  sketch: { kind: 'classic', scale: 1, maxInputSide: 2048 },
  cartoon: { kind: 'classic', scale: 1, maxInputSide: 2048 },
  enhance: { kind: 'classic', scale: 2, maxInputSide: 1024 },
} as const satisfies Record<string, { kind: 'ai' | 'classic'; scale: number; maxInputSide: number; model?: string; passes?: number }>;

export type ConversionId = keyof typeof CONVERSIONS;
export type AiModelId = Extract<(typeof CONVERSIONS)[ConversionId], { kind: 'ai' }>['model'];
export const CONVERSION_IDS = Object.keys(CONVERSIONS) as ConversionId[];

/** Decoded pixels: 8-bit RGB, row-major, no alpha (`data.length === width * height * 3`). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}
