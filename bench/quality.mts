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
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import type { OnnxSharpImageConverter } from '../src/modules/image-tool/adapters/onnx-sharp-image-converter.adapter.ts';
import type { OnnxUpscaler } from '../src/modules/image-tool/adapters/onnx/onnx-upscaler.ts';
import type { SharpStyles } from '../src/modules/image-tool/adapters/sharp/sharp-styles.ts';
import type { ConversionId } from '../src/modules/image-tool/domain/conversions.ts';
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
const { OnnxSharpImageConverter: Composite } = require(join(adapters, 'onnx-sharp-image-converter.adapter.js')) as { OnnxSharpImageConverter: typeof OnnxSharpImageConverter };
const { OnnxUpscaler: Onnx } = require(join(adapters, 'onnx/onnx-upscaler.js')) as { OnnxUpscaler: typeof OnnxUpscaler };
const { SharpStyles: Styles } = require(join(adapters, 'sharp/sharp-styles.js')) as { SharpStyles: typeof SharpStyles };
const converter = new Composite(Onnx.inBuild(ROOT), new Styles());
const signal = new AbortController().signal;

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

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const baselineOf = (scale: number) => scores[ROWS.findIndex((row) => row.id === 'bicubic' && row.scale === scale)]!;
const failures: string[] = [];
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
console.log(`CPU for one input at the conversion's bound (one core, 128 px tiles): ${fullSize.join(' · ')}`);
await converter.onApplicationShutdown();

if (failures.length) {
  console.error(`bench:quality FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('bench:quality: every conversion meets its floor, with no block grid and no colour on grey.');
