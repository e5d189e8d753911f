/**
 * npm run bench:quality — what a paid AI upscale is worth: every upscaling conversion of the image
 * tool scored against plain bicubic on natural photographs, the way super-resolution papers score:
 * each photograph cropped to at most QUALITY_MAX_SIDE px (512) is the ground truth, shrunk 2x or 4x
 * with Pillow's antialiased bicubic, enlarged back by each conversion (the real adapters of the
 * build, as a job runs them) and by bicubic, and compared with the truth: PSNR and SSIM on the luma
 * channel with a border of `scale` pixels cropped. Prints one table (means, the gain over bicubic,
 * on how many photographs the conversion is ahead, CPU seconds per photograph) and the CPU time of
 * a full-size input, then checks, failing the run with the reasons:
 * - each AI conversion's mean gain against its floor (QUALITY_FLOORS='{"ai-2x": 2}' overrides),
 *   and that it is ahead of bicubic on at least 14 of 16 photographs (the same share of any set);
 * - no block grid: the steps between neighbours are no more uneven across the scale's grid than
 *   bicubic's on the same photograph (the earlier 4x model repeated 2x2 pixels in every 4x4 block);
 * - grey in, grey out: no channel of a grey photograph's result more than 2 levels off grey.
 * The photographs: bench/quality-images.mts (scikit-image's set from Debian; QUALITY_IMAGES=<folder>). QUALITY_CONVERSIONS=ai-2x,ai-4x measures only those.
 *
 * The AI conversions run on OnnxUpscaler of the build (QUALITY_THREADS threads, default every CPU)
 * with modelsFor's models; the sizes here are exact multiples of opaque RGB, which the converter
 * adapter hands to it as they are. Then, each part skippable with QUALITY_PARTS (default
 * `table,full-size,noise,resample-alignment`; `table` is the one above):
 * - full-size: a 2048 px mosaic of the photographs (4 x 4 cells of 512 px, mirrored where a
 *   photograph is smaller) shrunk to a 1024 px input (512 px for 4x) and enlarged whole, against its
 *   centre half enlarged alone as a small input: on the same pixels, PSNR-Y within 0.05 dB, and the
 *   tiles both runs compute from the same windows within 1 level;
 * - noise: ai-2x of JPEG inputs (quality 60, 75, 90, shrunk 2x first) at each noise level, PSNR-Y
 *   against the clean original, on QUALITY_NOISE_PHOTOS photographs (default 8): the table behind
 *   DEFAULT_NOISE_FOR_JPEG (src/modules/image-tool/domain/noise-defaults.ts), checked here.
 * - resample-alignment: the one resample to the exact size (resampleRgbExact: shrinks of the
 *   network's output, enlargements of the alpha plane) sits on the aligned map within 0.05 px.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type * as Contracts from '../src/contracts/images.ts';
import type { ImageNoiseLevel } from '../src/contracts/images.ts';
import type { OnnxUpscaler } from '../src/modules/image-tool/adapters/onnx/onnx-upscaler.ts';
import type { SharpStyles } from '../src/modules/image-tool/adapters/sharp/sharp-styles.ts';
import type * as Conversions from '../src/modules/image-tool/domain/conversions.ts';
import type { ConversionId } from '../src/modules/image-tool/domain/conversions.ts';
import type * as NoiseDefaults from '../src/modules/image-tool/domain/noise-defaults.ts';
import { gridRatio, maxChroma, psnrY, resizeBicubic, ssimY, type Rgb } from './image-quality.mts';
import { imageSet } from './quality-images.mts';
import { ROOT } from './support.mts';

const MAX_SIDE = Number(process.env.QUALITY_MAX_SIDE ?? 512);
/** Mean PSNR-Y gain over bicubic each conversion must keep, in dB (enhance: never worse than bicubic). */
const FLOORS: Partial<Record<ConversionId, number>> = { 'ai-2x': 2.0, 'ai-2x-fast': 1.5, 'ai-4x': 1.5, enhance: 0, ...JSON.parse(process.env.QUALITY_FLOORS ?? '{}') };
const AHEAD_SHARE = 14 / 16;
/** A conversion's grid unevenness may exceed bicubic's on the same photograph by this factor (the old 4x model: 10^14). */
const GRID_TOLERANCE = 1.5;
const GREY_TOLERANCE = 2;

const ALL_ROWS: { id: ConversionId | 'bicubic'; scale: 2 | 4; says: string }[] = [
  { id: 'bicubic', scale: 2, says: 'bicubic 2x (baseline)' },
  { id: 'ai-2x', scale: 2, says: 'AI upscale 2x: waifu2x CUnet' },
  { id: 'ai-2x-fast', scale: 2, says: 'AI upscale 2x, fast: waifu2x upconv_7' },
  { id: 'enhance', scale: 2, says: 'classic 2x, sharpened: Nohalo + unsharp mask' },
  { id: 'bicubic', scale: 4, says: 'bicubic 4x (baseline)' },
  { id: 'ai-4x', scale: 4, says: 'AI upscale 4x: CUnet, two passes' },
];
/** QUALITY_CONVERSIONS='ai-2x-fast,ai-4x' measures only those (with the bicubic baselines of their scales). */
const ONLY = process.env.QUALITY_CONVERSIONS?.split(',').map((id) => id.trim()).filter(Boolean);
const unknown = ONLY?.filter((id) => !ALL_ROWS.some((row) => row.id === id && id !== 'bicubic')) ?? [];
if (unknown.length) throw new Error(`QUALITY_CONVERSIONS: no conversion ${unknown.join(', ')}`);
const measured = (id: string) => !ONLY || ONLY.includes(id);
const ROWS = ALL_ROWS.filter((row) => (row.id === 'bicubic' ? ALL_ROWS.some((r) => r.scale === row.scale && r.id !== 'bicubic' && measured(r.id)) : measured(row.id)));

interface Score {
  psnr: number;
  ssim: number;
  cpu: number;
  grid: number;
  /** Colour drawn on a grey photograph (undefined for a colour one). */
  chroma?: number;
}

const require = createRequire(import.meta.url);
const adapters = join(ROOT, 'dist/server/src/modules/image-tool/adapters');
const { OnnxUpscaler: Onnx } = require(join(adapters, 'onnx/onnx-upscaler.js')) as { OnnxUpscaler: typeof OnnxUpscaler };
const { SharpStyles: Styles } = require(join(adapters, 'sharp/sharp-styles.js')) as { SharpStyles: typeof SharpStyles };
const { CONVERSIONS, modelsFor } = require(join(ROOT, 'dist/server/src/modules/image-tool/domain/conversions.js')) as typeof Conversions;
const { planImageSize } = require(join(ROOT, 'dist/server/src/contracts/images.js')) as typeof Contracts;
const { DEFAULT_NOISE_FOR_JPEG } = require(join(ROOT, 'dist/server/src/modules/image-tool/domain/noise-defaults.js')) as typeof NoiseDefaults;
const THREADS = Number(process.env.QUALITY_THREADS ?? availableParallelism());
const upscaler = Onnx.inBuild(ROOT, { threads: THREADS });
const styles = new Styles();
const signal = new AbortController().signal;
const PARTS = (process.env.QUALITY_PARTS ?? 'table,full-size,noise,resample-alignment').split(',').map((part) => part.trim());

/** A conversion as a job runs it on an opaque input enlarged by an exact multiple: the AI models of its passes, or the sharp style. */
const converter = {
  convert(image: Rgb, id: ConversionId, _signal: AbortSignal, noise: ImageNoiseLevel = 'none', on: OnnxUpscaler = upscaler): Promise<Rgb> {
    const spec = CONVERSIONS[id];
    if (spec.kind === 'classic') return styles.apply(image, id as 'sketch' | 'cartoon' | 'enhance', _signal);
    const { passes } = planImageSize(image.width, image.height, id);
    return on.upscale(image, modelsFor(spec.arch, passes, noise), _signal);
  },
};

/** The photograph's centre, at most MAX_SIDE a side, cut to a multiple of 4 so that both scales divide it. */
async function groundTruth(path: string): Promise<Rgb> {
  const { width = 0, height = 0 } = await sharp(path).metadata();
  const [w, h] = [Math.min(width, MAX_SIDE) & ~3, Math.min(height, MAX_SIDE) & ~3];
  const { data } = await sharp(path)
    .extract({ left: (width - w) >> 1, top: (height - h) >> 1, width: w, height: h })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: w, height: h };
}

/** Runs `convert` and returns its result with the process's CPU seconds (the inference thread's included). */
async function timed(convert: () => Promise<Rgb> | Rgb): Promise<{ out: Rgb; cpu: number }> {
  const before = process.cpuUsage();
  const out = await convert();
  const { user, system } = process.cpuUsage(before);
  return { out, cpu: (user + system) / 1e6 };
}

const enlarge = (row: (typeof ROWS)[number], small: Rgb, truth: Rgb) =>
  timed(() => (row.id === 'bicubic' ? resizeBicubic(small, truth.width, truth.height) : converter.convert(small, row.id, signal)));

const set = imageSet(ROOT);
const failures: string[] = [];
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

if (PARTS.includes('table')) {
  console.log(`bench:quality — ${set.says}, cropped to at most ${MAX_SIDE} px; PSNR-Y / SSIM-Y with a border of the scale cropped`);
  const scores = ROWS.map(() => [] as Score[]);
  for (const file of set.files) {
    const truth = await groundTruth(file.path);
    const grey = maxChroma(truth) === 0;
    const small = { 2: resizeBicubic(truth, truth.width / 2, truth.height / 2), 4: resizeBicubic(truth, truth.width / 4, truth.height / 4) };
    for (const [i, row] of ROWS.entries()) {
      const { out, cpu } = await enlarge(row, small[row.scale], truth);
      if (out.width !== truth.width || out.height !== truth.height) throw new Error(`${row.id} gave ${out.width}x${out.height} for ${truth.width}x${truth.height}`);
      scores[i]!.push({ psnr: psnrY(out, truth, row.scale), ssim: ssimY(out, truth, row.scale), cpu, grid: gridRatio(out, row.scale), chroma: grey ? maxChroma(out) : undefined });
    }
    process.stdout.write(`  ${file.name} ${truth.width}x${truth.height}${grey ? ' (grey)' : ''}${file.licence ? ` — ${file.licence}` : ''}\n`);
  }

  const baselineOf = (scale: number) => scores[ROWS.findIndex((row) => row.id === 'bicubic' && row.scale === scale)]!;
  const table = ROWS.map((row, i) => {
    const own = scores[i]!;
    const base = baselineOf(row.scale);
    const gain = mean(own.map((s) => s.psnr)) - mean(base.map((s) => s.psnr));
    const ahead = own.filter((s, j) => s.psnr > base[j]!.psnr).length;
    const floor = row.id === 'bicubic' ? undefined : FLOORS[row.id];
    const grid = Math.max(...own.map((s, j) => s.grid / base[j]!.grid));
    const chroma = Math.max(0, ...own.map((s) => s.chroma ?? 0));
    if (floor !== undefined) {
      if (gain < floor) failures.push(`${row.says} gains ${gain.toFixed(2)} dB over bicubic, below its floor of ${floor} dB`);
      if (floor > 0 && ahead < Math.ceil(AHEAD_SHARE * own.length)) failures.push(`${row.says} is ahead of bicubic on ${ahead} of ${own.length} photographs, fewer than ${Math.ceil(AHEAD_SHARE * own.length)}`);
    }
    if (grid > GRID_TOLERANCE) failures.push(`${row.says} has a block grid: its steps are ${grid.toFixed(2)} times as uneven across the ${row.scale}x grid as bicubic's`);
    if (chroma > GREY_TOLERANCE) failures.push(`${row.says} draws colour on grey photographs: a channel ${chroma} levels off grey`);
    return {
      conversion: row.id === 'bicubic' ? `bicubic ${row.scale}x` : row.id,
      what: row.says,
      'PSNR-Y': mean(own.map((s) => s.psnr)).toFixed(2),
      'SSIM-Y': mean(own.map((s) => s.ssim)).toFixed(4),
      'gain dB': row.id === 'bicubic' ? '-' : `${gain >= 0 ? '+' : ''}${gain.toFixed(2)}`,
      ahead: row.id === 'bicubic' ? '-' : `${ahead}/${own.length}`,
      floor: floor === undefined ? '-' : `+${floor}`,
      'CPU s': mean(own.map((s) => s.cpu)).toFixed(2),
      grid: grid.toFixed(2),
      'grey off': own.some((s) => s.chroma !== undefined) ? String(chroma) : '-',
    };
  });
  console.table(table);

  // The CPU a full-size job costs: AI 2x of a 512 px input, AI 4x of a 256 px one (the first photograph).
  const first = await groundTruth(set.files[0]!.path);
  const crop = async (side: number): Promise<Rgb> => {
    const [w, h] = [Math.min(side, first.width), Math.min(side, first.height)];
    const { data } = await sharp(first.data, { raw: { width: first.width, height: first.height, channels: 3 } }).extract({ left: 0, top: 0, width: w, height: h }).raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: w, height: h };
  };
  const fullSize: string[] = [];
  for (const [id, side] of ([['ai-2x', 512], ['ai-2x-fast', 512], ['ai-4x', 256], ['enhance', 512]] as const).filter(([id]) => measured(id))) {
    const input = await crop(side);
    const { cpu } = await timed(() => converter.convert(input, id, signal));
    fullSize.push(`${id} ${input.width}x${input.height} ${cpu.toFixed(2)} s`);
  }
  console.log(`CPU for one input at the conversion's bound before full size (${THREADS} inference threads, 128 px tiles; all threads' CPU): ${fullSize.join(' · ')}`);
}

/** Part of an image: `width` x `height` from (left, top). */
function crop(image: Rgb, left: number, top: number, width: number, height: number): Rgb {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(image.data.subarray(((top + y) * image.width + left) * 3, ((top + y) * image.width + left + width) * 3), y * width * 3);
  return { data, width, height };
}

/** How many channel values of `a` differ from `b`'s by more than `by`. */
const differing = (a: Rgb, b: Rgb, by: number) => a.data.reduce((count, v, i) => count + (Math.abs(v - b.data[i]!) > by ? 1 : 0), 0);

/** A photograph's centre, `side` px square, mirrored where the photograph is smaller. */
async function cell(path: string, side: number): Promise<Rgb> {
  const { width = 0, height = 0 } = await sharp(path).metadata();
  const [w, h] = [Math.min(width, side), Math.min(height, side)];
  const { data } = await sharp(path)
    .extract({ left: (width - w) >> 1, top: (height - h) >> 1, width: w, height: h })
    .extend({ right: side - w, bottom: side - h, extendWith: 'mirror' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: side, height: side };
}

if (PARTS.includes('full-size')) {
  // 4 x 4 photographs of 512 px: a 2048 px ground truth; each conversion's input is it shrunk by the scale.
  const CELL = 512;
  const truth: Rgb = { data: new Uint8Array(4 * CELL * 4 * CELL * 3), width: 4 * CELL, height: 4 * CELL };
  for (let i = 0; i < 16; i++) {
    const part = await cell(set.files[i % set.files.length]!.path, CELL);
    const [left, top] = [(i % 4) * CELL, Math.floor(i / 4) * CELL];
    for (let y = 0; y < CELL; y++) truth.data.set(part.data.subarray(y * CELL * 3, (y + 1) * CELL * 3), ((top + y) * truth.width + left) * 3);
  }
  const oneThread = Onnx.inBuild(ROOT, { threads: 1 });
  const rows: Record<string, string>[] = [];
  for (const id of (['ai-2x', 'ai-2x-fast', 'ai-4x'] as const).filter(measured)) {
    const scale = id === 'ai-4x' ? 4 : 2;
    // The centre half, alone: a small input on one thread. Its offset and size are whole 128 px tiles,
    // so the tiles away from its edges read the same windows as the big run's.
    const bigAndSmall = async (input: Rgb) => {
      const [offset, side] = [input.width / 4, input.width / 2];
      const big = await timed(() => converter.convert(input, id, signal));
      const small = await converter.convert(crop(input, offset, offset, side, side), id, signal, 'none', oneThread);
      return { big, small, region: (image: Rgb) => crop(image, offset * scale, offset * scale, side * scale, side * scale) };
    };
    const input = resizeBicubic(truth, truth.width / scale, truth.height / scale);
    const scored = await bigAndSmall(input);
    const [bigScore, smallScore] = [psnrY(scored.region(scored.big.out), scored.region(truth), scale), psnrY(scored.small, scored.region(truth), scale)];
    // Interior: the tiles whose windows lie inside the centre half in every pass. 2x: one tile in from
    // its edges; 4x, on a 1024 px input (a 4096 px result): the first pass's edge tiles differ a little
    // (CUnet's squeeze-and-excitation averages over the window), so the second pass's next tiles too.
    const compared = scale === 2 ? scored : await bigAndSmall(resizeBicubic(truth, truth.width / 2, truth.height / 2));
    const margin = scale === 2 ? 128 * 2 : 384 * 2;
    const interior = (image: Rgb) => crop(image, margin, margin, image.width - 2 * margin, image.height - 2 * margin);
    const off = differing(interior(compared.region(compared.big.out)), interior(compared.small), 1);
    if (Math.abs(bigScore - smallScore) > 0.05) failures.push(`${id}: a ${input.width} px input scores ${bigScore.toFixed(3)} dB where its centre alone scores ${smallScore.toFixed(3)} dB (more than 0.05 dB apart)`);
    if (off > 0) failures.push(`${id}: ${off} values of the big run's interior are more than 1 level off the small run's`);
    rows.push({
      conversion: id,
      input: `${input.width}x${input.height}`,
      'PSNR-Y big': bigScore.toFixed(3),
      'PSNR-Y alone': smallScore.toFixed(3),
      'apart dB': Math.abs(bigScore - smallScore).toFixed(3),
      interior: `${interior(compared.small).width}x${interior(compared.small).height} of ${compared.big.out.width}x${compared.big.out.height}`,
      '> 1 level off': String(off),
      'CPU s (big)': scored.big.cpu.toFixed(1),
    });
  }
  await oneThread.close();
  console.log(`full-size: a 2048 px mosaic of 16 photographs, enlarged whole (${THREADS} threads) and its centre half alone (1 thread); PSNR-Y on the centre against the truth`);
  console.table(rows);
}

if (PARTS.includes('noise')) {
  // ai-2x of JPEG inputs: the truth shrunk 2x, then saved as JPEG (4:2:0, as most cameras and sites).
  const photos = set.files.slice(0, Number(process.env.QUALITY_NOISE_PHOTOS ?? 8));
  const QUALITIES = [60, 75, 90] as const;
  const LEVELS = ['none', 'low', 'medium', 'high'] as const;
  const sums = new Map<string, number>();
  for (const file of photos) {
    const truth = await groundTruth(file.path);
    const small = resizeBicubic(truth, truth.width / 2, truth.height / 2);
    for (const quality of QUALITIES) {
      const jpeg = await sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } }).jpeg({ quality }).toBuffer();
      const decoded = { data: new Uint8Array(await sharp(jpeg).toColourspace('srgb').removeAlpha().raw().toBuffer()), width: small.width, height: small.height };
      for (const level of LEVELS) {
        const out = await converter.convert(decoded, 'ai-2x', signal, level);
        const key = `${quality}:${level}`;
        sums.set(key, (sums.get(key) ?? 0) + psnrY(out, truth, 2));
      }
    }
  }
  const score = (quality: number, level: string) => sums.get(`${quality}:${level}`)! / photos.length;
  console.log(`noise: ai-2x of JPEG inputs, mean PSNR-Y against the clean original (${photos.length} photographs, shrunk 2x, then JPEG)`);
  console.table(Object.fromEntries(QUALITIES.map((q) => [`JPEG q${q}`, Object.fromEntries(LEVELS.map((level) => [level, score(q, level).toFixed(2)]))])));
  const overall = (level: string) => mean(QUALITIES.map((q) => score(q, level)));
  const best = [...LEVELS].sort((a, b) => overall(b) - overall(a))[0]!;
  console.log(`mean over the three qualities: ${LEVELS.map((level) => `${level} ${overall(level).toFixed(2)}`).join(', ')}; best: ${best}; DEFAULT_NOISE_FOR_JPEG: ${DEFAULT_NOISE_FOR_JPEG}`);
  if (overall(DEFAULT_NOISE_FOR_JPEG) < overall(best) - 0.05) failures.push(`DEFAULT_NOISE_FOR_JPEG is ${DEFAULT_NOISE_FOR_JPEG}, but ${best} scores ${(overall(best) - overall(DEFAULT_NOISE_FOR_JPEG)).toFixed(2)} dB better on JPEG inputs`);
}

if (PARTS.includes('resample-alignment')) {
  // The one resample from the network's output to the exact size (resampleRgbExact, what the
  // converter adapter runs) lines up with the input's grid: a ramp resampled along each axis sits
  // where the aligned map (output X samples input (X + 0.5) / s - 0.5) puts it. Shrinks are what the
  // colour goes through (4096 -> 3072 for 1.5x of a 2048 px input, and widths no multiple of the
  // scale); enlargements are the alpha plane's path. A half-pixel shift reads 0.5.
  const { measureResampleShift } = require(join(adapters, 'sharp/exact-resample.js')) as { measureResampleShift: (from: number, to: number, axis?: 'x' | 'y') => Promise<number> };
  const FLOOR_PX = 0.05;
  // The ramp is exact in bytes up to 118 px (20 + 2 x): the ratios of the real cases at that scale
  // (4096 -> 3072 and 2048 -> 1536 for 1.5x, an exact width 5/6 of the output, a width one pixel
  // off, the alpha plane doubled and quadrupled).
  const cases: [number, number][] = [[112, 84], [100, 75], [108, 90], [111, 110], [111, 112], [50, 100], [28, 112]];
  console.log(`\nresample-alignment: mean distance from the aligned map, in input pixels (floor ${FLOOR_PX})`);
  for (const [from, to] of cases) {
    const shifts = await Promise.all((['x', 'y'] as const).map((axis) => measureResampleShift(from, to, axis)));
    const worst = Math.max(...shifts.map(Math.abs));
    console.log(`  ${from} -> ${to} px: x ${shifts[0]!.toFixed(3)}, y ${shifts[1]!.toFixed(3)}`);
    if (worst > FLOOR_PX) failures.push(`resample ${from} -> ${to} px is shifted by ${worst.toFixed(3)} px (at most ${FLOOR_PX})`);
  }
}

await upscaler.close();

if (failures.length) {
  console.error(`bench:quality FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('bench:quality: every conversion meets its floor, with no block grid and no colour on grey.');
