// Builds the image tool's ONNX models (dist/models/<id>.onnx) from the TensorFlow.js weights that
// ship in the @upscalerjs npm packages: the packages are the source, nothing is copied in by hand.
// Skips a model whose output was built from the same inputs (a content hash in
// dist/models/.sources.json: npm and git do not keep meaningful mtimes). Run by `npm run build`.
// Usage: node scripts/build-models.mjs [--out DIR] [--force]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertLayersModel, readLayersModel } from './models/layers-to-onnx.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

/** The models of src/modules/image-tool/domain/conversions.ts, by id. */
export const MODELS = {
  'esrgan-medium-x2': { pkg: '@upscalerjs/esrgan-medium', dir: 'models/x2', scale: 2 },
  'esrgan-slim-x2': { pkg: '@upscalerjs/esrgan-slim', dir: 'models/x2', scale: 2 },
  'esrgan-medium-x4': { pkg: '@upscalerjs/esrgan-medium', dir: 'models/x4', scale: 4 },
};

/** The package's folder (its exports map hides package.json from require.resolve). */
function packageDir(pkg) {
  const dirs = createRequire(import.meta.url).resolve.paths(pkg) ?? [];
  const found = dirs.map((dir) => join(dir, pkg)).find((dir) => existsSync(join(dir, 'package.json')));
  if (!found) throw new Error(`${pkg} is not installed: run npm ci`);
  return found;
}

/** Hash of everything an output depends on: the converter's code and the model's files. */
function sourcesHash(modelDir) {
  const hash = createHash('sha256');
  const files = [fileURLToPath(import.meta.url), ...readdirSync(join(root, 'scripts/models')).map((f) => join(root, 'scripts/models', f))];
  files.push(...readdirSync(modelDir).map((f) => join(modelDir, f)));
  for (const file of files.sort()) hash.update(relative(root, file)).update(readFileSync(file));
  return hash.digest('hex');
}

export function buildModels({ outDir = join(root, 'dist/models'), force = false } = {}) {
  mkdirSync(outDir, { recursive: true });
  const stampFile = join(outDir, '.sources.json');
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : {};
  for (const [id, { pkg, dir, scale }] of Object.entries(MODELS)) {
    const pkgDir = packageDir(pkg);
    const modelDir = join(pkgDir, dir);
    const output = join(outDir, `${id}.onnx`);
    const hash = sourcesHash(modelDir);
    if (!force && stamp[id] === hash && existsSync(output)) continue;
    const { version, license } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const bytes = convertLayersModel(readLayersModel(modelDir), {
      name: id,
      docString: `${pkg}@${version} ${dir} (${license}), converted from TensorFlow.js by scripts/build-models.mjs. Trained on DIV2K (academic research use).`,
      metadata: { source: `${pkg}@${version}/${dir}`, scale, input_range: '0-255', output_range: '0-255', layout: 'NCHW' },
    });
    writeFileSync(`${output}.tmp`, bytes);
    renameSync(`${output}.tmp`, output); // never leave a half-written model under the real name
    stamp[id] = hash;
    writeFileSync(stampFile, JSON.stringify(stamp, null, 2));
    console.log(`Model ${id}: ${relative(process.cwd(), output)} (${(bytes.length / 1e6).toFixed(1)} MB) from ${pkg}@${version}/${dir}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = args.indexOf('--out');
  buildModels({ outDir: out >= 0 ? resolve(args[out + 1]) : undefined, force: args.includes('--force') });
}
