/**
 * An aligned Lanczos3 resample in plain TypeScript: separable, a = 3, widened by the ratio when
 * shrinking (so it filters instead of aliasing), edge pixels repeated. Aligned: output pixel X
 * samples input (X + 0.5) / scale - 0.5, pixel centres on pixel centres, no half-pixel shift
 * (`resample.spec.ts` proves it on a ramp). For enlargements, where sharp's resize shifts the
 * picture half an output pixel (docs/features.md): the alpha plane, input size to result size.
 * Shrinking goes through sharp, aligned and native (adapters/sharp/exact-resample.ts). Measured in
 * plain Node 24 on a busy shared core (load 11 on 2 cores): a 1024x768 alpha plane to 4096x3072 in
 * 0.3-0.5 s, 5461x4096 RGB to 4096x3072 in 3 s (jest's VM runs it several times slower).
 */
const LOBES = 3;

/** The taps of every output position along one axis: first input index, then normalised weights. */
interface Taps {
  first: Int32Array;
  count: number;
  weights: Float32Array;
}

function lanczos(x: number): number {
  if (x === 0) return 1;
  if (x <= -LOBES || x >= LOBES) return 0;
  const px = Math.PI * x;
  return (LOBES * Math.sin(px) * Math.sin(px / LOBES)) / (px * px);
}

/** Where output position `X` of `to` samples on an axis of `from` pixels (the aligned map). */
export const alignedSource = (X: number, from: number, to: number): number => ((X + 0.5) * from) / to - 0.5;

function taps(from: number, to: number): Taps {
  const scale = to / from;
  // Shrinking widens the kernel by 1 / scale: each tap then covers its share of input pixels.
  const stretch = scale < 1 ? 1 / scale : 1;
  const support = LOBES * stretch;
  const count = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(to);
  const weights = new Float32Array(to * count);
  for (let X = 0; X < to; X++) {
    const centre = alignedSource(X, from, to);
    const start = Math.floor(centre - support) + 1;
    first[X] = start;
    let sum = 0;
    for (let k = 0; k < count; k++) {
      const w = lanczos((start + k - centre) / stretch);
      weights[X * count + k] = w;
      sum += w;
    }
    for (let k = 0; k < count; k++) weights[X * count + k]! /= sum;
  }
  return { first, count, weights };
}

const clampIndex = (i: number, size: number) => (i < 0 ? 0 : i >= size ? size - 1 : i);

/**
 * Interleaved 8-bit pixels (`channels` per pixel) of `width` x `height` resampled to exactly
 * `toWidth` x `toHeight`. The same size comes back as a copy.
 */
export function resampleAligned(data: Uint8Array, width: number, height: number, channels: number, toWidth: number, toHeight: number): Uint8Array {
  if (data.length !== width * height * channels) throw new RangeError(`${data.length} bytes for ${width}x${height}x${channels}`);
  if (!(toWidth >= 1 && toHeight >= 1)) throw new RangeError(`Cannot resample to ${toWidth}x${toHeight}`);
  if (width === toWidth && height === toHeight) return data.slice();
  // Horizontal pass into floats (width toWidth, height rows), then vertical into bytes.
  const h = taps(width, toWidth);
  const rowLength = toWidth * channels;
  const across = new Float32Array(rowLength * height);
  // The column indices each output position reads, clamped at the edges once, not per pixel.
  const columns = new Int32Array(toWidth * h.count);
  for (let X = 0; X < toWidth; X++) for (let k = 0; k < h.count; k++) columns[X * h.count + k] = clampIndex(h.first[X]! + k, width) * channels;
  for (let y = 0; y < height; y++) {
    const inRow = y * width * channels;
    const outRow = y * rowLength;
    for (let X = 0; X < toWidth; X++) {
      const w0 = X * h.count;
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < h.count; k++) sum += h.weights[w0 + k]! * data[inRow + columns[w0 + k]! + c]!;
        across[outRow + X * channels + c] = sum;
      }
    }
  }
  const v = taps(height, toHeight);
  const out = new Uint8Array(rowLength * toHeight);
  const sums = new Float32Array(rowLength);
  for (let Y = 0; Y < toHeight; Y++) {
    sums.fill(0);
    const w0 = Y * v.count;
    // Row by row: each tap adds a whole input row, read in order.
    for (let k = 0; k < v.count; k++) {
      const weight = v.weights[w0 + k]!;
      if (weight === 0) continue;
      const row = clampIndex(v.first[Y]! + k, height) * rowLength;
      for (let i = 0; i < rowLength; i++) sums[i]! += weight * across[row + i]!;
    }
    const outRow = Y * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const value = Math.round(sums[i]!);
      out[outRow + i] = value < 0 ? 0 : value > 255 ? 255 : value;
    }
  }
  return out;
}
