/**
 * The measurements of npm run bench:quality, as super-resolution papers make them: resampling as
 * Pillow does it (antialiased bicubic, the protocol's downscale and its baseline upscale), PSNR and
 * SSIM on the luma channel with a border cropped, and two checks for artefacts a mean hides (a
 * block grid, colour on grey input). Plain TypeScript with no imports, so node runs it as it is.
 */

/** 8-bit RGB pixels, row-major. */
export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Pillow's bicubic kernel (a = -0.5), support 2. */
function bicubic(x: number): number {
  const a = -0.5;
  x = Math.abs(x);
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

/** Pillow keeps 8-bit intermediates with 22-bit fixed-point weights (PRECISION_BITS = 32 - 8 - 2). */
const PRECISION_BITS = 22;

/** One axis' weights, as Pillow's precompute_coeffs: antialiased (the kernel stretched) when shrinking. */
function coefficients(inSize: number, outSize: number) {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = 2 * filterScale;
  return Array.from({ length: outSize }, (_, xx) => {
    const centre = (xx + 0.5) * scale;
    const first = Math.max(Math.trunc(centre - support + 0.5), 0);
    const last = Math.min(Math.trunc(centre + support + 0.5), inSize);
    const weights: number[] = [];
    let total = 0;
    for (let x = first; x < last; x++) {
      const w = bicubic((x - centre + 0.5) / filterScale);
      weights.push(w);
      total += w;
    }
    const fixed = Int32Array.from(weights, (w) => {
      const v = (total ? w / total : 0) * (1 << PRECISION_BITS);
      return Math.trunc(v < 0 ? v - 0.5 : v + 0.5);
    });
    return { first, fixed };
  });
}

const clip8 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : v);

/** Pillow's `Image.resize(size, Image.BICUBIC)` for RGB: horizontal pass, then vertical, 8-bit between. */
export function resizeBicubic(image: Rgb, width: number, height: number): Rgb {
  const pass = (source: Rgb, outW: number, outH: number, horizontal: boolean): Rgb => {
    const coeffs = coefficients(horizontal ? source.width : source.height, horizontal ? outW : outH);
    const out = new Uint8Array(outW * outH * 3);
    for (let y = 0; y < outH; y++)
      for (let x = 0; x < outW; x++) {
        const { first, fixed } = coeffs[horizontal ? x : y]!;
        for (let c = 0; c < 3; c++) {
          let sum = 1 << (PRECISION_BITS - 1);
          for (let k = 0; k < fixed.length; k++) {
            const index = horizontal ? (y * source.width + first + k) * 3 + c : ((first + k) * source.width + x) * 3 + c;
            sum += source.data[index]! * fixed[k]!;
          }
          out[(y * outW + x) * 3 + c] = clip8(Math.floor(sum / 2 ** PRECISION_BITS));
        }
      }
    return { data: out, width: outW, height: outH };
  };
  const across = width === image.width ? image : pass(image, width, image.height, true);
  return height === image.height ? across : pass(across, width, height, false);
}

/** Luma as the papers take it (ITU-R BT.601, MATLAB's rgb2ycbcr): 16..235, as floats. */
export function luma({ data, width, height }: Rgb, border = 0): { y: Float64Array; width: number; height: number } {
  const w = width - 2 * border;
  const h = height - 2 * border;
  const y = new Float64Array(w * h);
  for (let row = 0; row < h; row++)
    for (let col = 0; col < w; col++) {
      const i = ((row + border) * width + col + border) * 3;
      y[row * w + col] = 16 + (65.481 * data[i]! + 128.553 * data[i + 1]! + 24.966 * data[i + 2]!) / 255;
    }
  return { y, width: w, height: h };
}

/** PSNR of the luma channel in dB, `border` pixels cropped on each side. */
export function psnrY(a: Rgb, b: Rgb, border: number): number {
  const ya = luma(a, border).y;
  const yb = luma(b, border).y;
  let sum = 0;
  for (let i = 0; i < ya.length; i++) sum += (ya[i]! - yb[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / ya.length));
}

/** A separable Gaussian filter (11 taps, sigma 1.5), valid region only: SSIM's window. */
function gaussianValid(plane: Float64Array, width: number, height: number): { out: Float64Array; width: number; height: number } {
  const taps = Array.from({ length: 11 }, (_, i) => Math.exp(-((i - 5) ** 2) / (2 * 1.5 ** 2)));
  const norm = taps.reduce((a, b) => a + b, 0);
  const g = taps.map((t) => t / norm);
  const w1 = width - 10;
  const h1 = height - 10;
  const across = new Float64Array(w1 * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < w1; x++) {
    let s = 0;
    for (let k = 0; k < 11; k++) s += plane[y * width + x + k]! * g[k]!;
    across[y * w1 + x] = s;
  }
  const out = new Float64Array(w1 * h1);
  for (let y = 0; y < h1; y++) for (let x = 0; x < w1; x++) {
    let s = 0;
    for (let k = 0; k < 11; k++) s += across[(y + k) * w1 + x]! * g[k]!;
    out[y * w1 + x] = s;
  }
  return { out, width: w1, height: h1 };
}

/** SSIM of the luma channel (Wang et al. 2004: Gaussian window 11/1.5, K1 0.01, K2 0.03, range 255). */
export function ssimY(a: Rgb, b: Rgb, border: number): number {
  const { y: x, width, height } = luma(a, border);
  const { y } = luma(b, border);
  const product = (p: Float64Array, q: Float64Array) => p.map((v, i) => v * q[i]!);
  const blur = (plane: Float64Array) => gaussianValid(plane, width, height).out;
  const [mx, my, xx, yy, xy] = [blur(x), blur(y), blur(product(x, x)), blur(product(y, y)), blur(product(x, y))];
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  for (let i = 0; i < mx.length; i++) {
    const [ux, uy] = [mx[i]!, my[i]!];
    const vx = xx[i]! - ux * ux;
    const vy = yy[i]! - uy * uy;
    const cxy = xy[i]! - ux * uy;
    total += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
  }
  return total / mx.length;
}

/**
 * How much stronger the steps between neighbours are at one phase of the `scale` grid than at the
 * others (luma, both axes): about 1 for a smooth resize, large when the output is made of blocks
 * (a block's inside flat, its edges carrying all the change).
 */
export function gridRatio(image: Rgb, scale: number): number {
  const { y, width, height } = luma(image);
  const phases = new Float64Array(scale);
  for (let row = 0; row < height; row++)
    for (let col = 0; col + 1 < width; col++) phases[col % scale]! += Math.abs(y[row * width + col + 1]! - y[row * width + col]!);
  for (let row = 0; row + 1 < height; row++)
    for (let col = 0; col < width; col++) phases[row % scale]! += Math.abs(y[(row + 1) * width + col]! - y[row * width + col]!);
  return Math.max(...phases) / Math.max(Math.min(...phases), 1e-9);
}

/** The largest difference between the channels of one pixel: 0 for a grey image. */
export function maxChroma({ data }: Rgb): number {
  let max = 0;
  for (let i = 0; i < data.length; i += 3) max = Math.max(max, Math.abs(data[i]! - data[i + 1]!), Math.abs(data[i + 1]! - data[i + 2]!), Math.abs(data[i]! - data[i + 2]!));
  return max;
}
