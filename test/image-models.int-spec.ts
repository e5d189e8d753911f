import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { OnnxImageConverter, planTiles } from 'src/modules/image-tool/adapters/onnx/onnx.image-converter';
import type { AiModelId, RgbImage } from 'src/modules/image-tool/domain/conversions';
import { convertLayersModel, readLayersModel } from '../scripts/models/layers-to-onnx.mjs';

/**
 * The image tool's AI models: scripts/build-models.mjs converts the TensorFlow.js weights of the
 * @upscalerjs packages to ONNX, and OnnxImageConverter runs them in tiles. The conversion is
 * checked against TensorFlow.js itself (its pure-JS CPU backend) on the same input.
 */
const MODELS: Record<AiModelId, { dir: string; scale: number }> = {
  'esrgan-medium-x2': { dir: 'node_modules/@upscalerjs/esrgan-medium/models/x2', scale: 2 },
  'esrgan-slim-x2': { dir: 'node_modules/@upscalerjs/esrgan-slim/models/x2', scale: 2 },
  'esrgan-medium-x4': { dir: 'node_modules/@upscalerjs/esrgan-medium/models/x4', scale: 4 },
};
const MODEL_IDS = Object.keys(MODELS) as AiModelId[];
const never = () => new AbortController().signal;

let modelsDir: string;
let converter: OnnxImageConverter;

function buildModels() {
  return spawnSync(process.execPath, ['scripts/build-models.mjs', '--out', modelsDir], { encoding: 'utf8' });
}

beforeAll(() => {
  tf.enableProdMode(); // no "install tfjs-node" banner
  modelsDir = mkdtempSync(join(tmpdir(), 'models-'));
  const build = buildModels();
  if (build.status !== 0) throw new Error(`scripts/build-models.mjs failed: ${build.stderr}`);
  converter = new OnnxImageConverter(modelsDir);
});

afterAll(async () => {
  await converter?.close();
  if (modelsDir) rmSync(modelsDir, { recursive: true, force: true });
});

/** Noise: every pixel independent, the hardest input for a comparison. */
function noise(width: number, height: number, seed = 1): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = state >>> 24;
  }
  return { data, width, height };
}

/** Gradients, rings and a hard edge: something a super-resolution model treats as a picture. */
function picture(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const ring = Math.sin(Math.hypot(x - width / 3, y - height / 2) / 3);
      data[i] = (x * 255) / width;
      data[i + 1] = 128 + 100 * ring;
      data[i + 2] = x + y < (width + height) / 2 ? 40 : 220;
    }
  return { data, width, height };
}

function psnr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / a.length));
}

/** Averages each scale x scale block: the upscaled image brought back to the input's size. */
function downscale(image: RgbImage, scale: number): Float32Array {
  const width = image.width / scale;
  const out = new Float32Array((image.width / scale) * (image.height / scale) * 3);
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      for (let c = 0; c < 3; c++) out[(Math.floor(y / scale) * width + Math.floor(x / scale)) * 3 + c]! += image.data[(y * image.width + x) * 3 + c]! / scale ** 2;
  return out;
}

async function tfjsReference(dir: string): Promise<tf.LayersModel> {
  const modelJson = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const shards = modelJson.weightsManifest.flatMap((group) => group.paths.map((path) => readFileSync(join(dir, path))));
  const weightData = new Uint8Array(Buffer.concat(shards)).buffer;
  const weightSpecs = modelJson.weightsManifest.flatMap((group) => group.weights);
  return tf.loadLayersModel(tf.io.fromMemory({ modelTopology: modelJson.modelTopology, weightSpecs, weightData }));
}

describe.each(MODEL_IDS)('the model %s', (id) => {
  const { dir, scale } = MODELS[id];

  it('computes what the TensorFlow.js model computes', async () => {
    const [width, height] = [20, 24]; // not square: a swapped axis shows
    const image = noise(width, height);
    const reference = await tfjsReference(resolve(dir));
    const expected = tf.tidy(() => (reference.predict(tf.tensor4d(Float32Array.from(image.data), [1, height, width, 3])) as tf.Tensor).dataSync());
    reference.dispose();

    const session = await InferenceSession.create(join(modelsDir, `${id}.onnx`), { executionProviders: ['cpu'], intraOpNumThreads: 1 });
    const planar = new Float32Array(image.data.length);
    for (let p = 0; p < width * height; p++) for (let c = 0; c < 3; c++) planar[c * width * height + p] = image.data[p * 3 + c]!;
    const { output } = await session.run({ input: new Tensor('float32', planar, [1, 3, height, width]) });
    await session.release();
    expect(output!.dims).toEqual([1, 3, height * scale, width * scale]);
    const plane = width * height * scale ** 2;
    const interleaved = new Float32Array(expected.length);
    for (let p = 0; p < plane; p++) for (let c = 0; c < 3; c++) interleaved[p * 3 + c] = (output!.data as Float32Array)[c * plane + p]!;

    // Same arithmetic up to float rounding: measured 131-137 dB (the bar was 45 dB).
    expect(psnr(interleaved, expected)).toBeGreaterThan(100);
  });

  it(`upscales a 64x64 picture ${scale}x`, async () => {
    const image = picture(64, 64);
    const result = await converter.upscale(image, id, never());

    expect(result).toMatchObject({ width: 64 * scale, height: 64 * scale });
    expect(result.data).toHaveLength(64 * scale * 64 * scale * 3);
    expect(new Set(result.data).size).toBeGreaterThan(100);
    // Brought back to 64x64, it is the input again, give or take the model's sharpening.
    expect(psnr(downscale(result, scale), image.data)).toBeGreaterThan(28);
  });
});

describe('tiles', () => {
  it('cover every pixel once, each with its context where the image has it', () => {
    for (const [width, height] of [[1, 1], [64, 200], [128, 128], [129, 300], [160, 200], [513, 17]] as const) {
      const covered = new Uint8Array(width * height);
      for (const tile of planTiles(width, height, { tileSize: 128, overlap: 8 })) {
        const [left, top] = [tile.x + tile.keepX, tile.y + tile.keepY];
        const [right, bottom] = [left + tile.keepWidth, top + tile.keepHeight];
        expect(Math.max(tile.keepWidth, tile.keepHeight)).toBeLessThanOrEqual(128);
        expect(tile.keepX).toBeGreaterThanOrEqual(Math.min(8, left));
        expect(tile.keepY).toBeGreaterThanOrEqual(Math.min(8, top));
        expect(tile.x + tile.width - right).toBeGreaterThanOrEqual(Math.min(8, width - right));
        expect(tile.y + tile.height - bottom).toBeGreaterThanOrEqual(Math.min(8, height - bottom));
        for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) covered[y * width + x]!++;
      }
      expect(covered.every((count) => count === 1)).toBe(true);
    }
  });

  it('leave no seams: tiled and untiled outputs agree', async () => {
    // 3 x 3 tiles of 88 px in windows of 144: the middle ones see exactly 8 px of context on their
    // left and top. Measured 80.4 dB, no pixel off by more than 1 (with 4 px of overlap: 65 dB; none: 45 dB).
    const image = picture(264, 264);
    const untiled = new OnnxImageConverter(modelsDir, { tileSize: 1024 });
    try {
      const whole = await untiled.upscale(image, 'esrgan-medium-x2', never());
      const tiled = await converter.upscale(image, 'esrgan-medium-x2', never());
      expect(psnr(tiled.data, whole.data)).toBeGreaterThan(70);
    } finally {
      await untiled.close();
    }
  });

  it('stop at the next tile once the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    const deadline = new Error('deadline passed');
    const onProgress = (tiles: number) => {
      done.push(tiles);
      controller.abort(deadline);
    };

    await expect(converter.upscale(picture(300, 140), 'esrgan-slim-x2', controller.signal, { onProgress })).rejects.toBe(deadline);
    expect(done).toEqual([1]); // of 6
    await expect(converter.upscale(picture(8, 8), 'esrgan-slim-x2', controller.signal)).rejects.toBe(deadline);
  });
});

describe('the model build', () => {
  it('says to run the build when a model file is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-models-'));
    const missing = new OnnxImageConverter(empty);
    try {
      await expect(missing.upscale(picture(8, 8), 'esrgan-slim-x2', never())).rejects.toThrow(/esrgan-slim-x2.*npm run build/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it('converts nothing again when its inputs have not changed', () => {
    const again = buildModels();
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('refuses a layer it does not know', () => {
    const model = readLayersModel(resolve(MODELS['esrgan-slim-x2'].dir));
    const layer = model.modelJson.modelTopology.model_config.config.layers.find((l) => l.class_name === 'Activation')!;
    layer.class_name = 'LeakyReLU';
    expect(() => convertLayersModel(model, { name: 'test' })).toThrow(`test: layer ${layer.name} (LeakyReLU): unsupported layer type`);
  });
});
