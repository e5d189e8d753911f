import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { OnnxImageConverter, planTiles, type Tile } from 'src/modules/image-tool/adapters/onnx/onnx.image-converter';
import type { AiModelId, RgbImage } from 'src/modules/image-tool/domain/conversions';
import { convertLayersModel, readLayersModel } from '../scripts/models/layers-to-onnx.mjs';

/**
 * The image tool's AI models: scripts/build-models.mjs converts the TensorFlow.js weights of the
 * @upscalerjs packages to ONNX, and OnnxImageConverter runs them in tiles, in a worker thread. The
 * conversion is checked against TensorFlow.js itself (its pure-JS CPU backend) on the same input.
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

/** The model's output for the whole image, run here in the test's own thread: interleaved RGB floats. */
async function runHere(session: InferenceSession, image: RgbImage): Promise<Float32Array> {
  const { width, height } = image;
  const planar = new Float32Array(image.data.length);
  for (let p = 0; p < width * height; p++) for (let c = 0; c < 3; c++) planar[c * width * height + p] = image.data[p * 3 + c]!;
  const { output } = await session.run({ input: new Tensor('float32', planar, [1, 3, height, width]) });
  const [, , outHeight, outWidth] = output!.dims as number[];
  const plane = outWidth! * outHeight!;
  const interleaved = new Float32Array(plane * 3);
  for (let p = 0; p < plane; p++) for (let c = 0; c < 3; c++) interleaved[p * 3 + c] = (output!.data as Float32Array)[c * plane + p]!;
  output!.dispose();
  return interleaved;
}

/** The tile's input window, as an image of its own. */
function crop(image: RgbImage, { x, y, width, height }: Tile): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let row = 0; row < height; row++) data.set(image.data.subarray(((y + row) * image.width + x) * 3, ((y + row) * image.width + x + width) * 3), row * width * 3);
  return { data, width, height };
}

/** A session like the converter's: one CPU thread, all graph optimisations. */
const sessionHere = (id: AiModelId) => InferenceSession.create(join(modelsDir, `${id}.onnx`), { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });

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

    const session = await sessionHere(id);
    const interleaved = await runHere(session, image);
    await session.release();
    expect(interleaved).toHaveLength(width * scale * height * scale * 3);

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
    // The thread stopped that run and takes the next.
    await expect(converter.upscale(picture(8, 8), 'esrgan-slim-x2', never())).resolves.toMatchObject({ width: 16, height: 16 });
  });
});

describe('the inference thread', () => {
  it("keeps the event loop turning: no wait comes near a tile's time", async () => {
    const image = picture(300, 300);
    const tiles = planTiles(300, 300, { tileSize: 128, overlap: 8 }).length; // 9, of 144x144
    await converter.upscale(picture(8, 8), 'esrgan-medium-x2', never()); // the thread started, the model loaded

    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const start = performance.now();
    await converter.upscale(image, 'esrgan-medium-x2', never());
    const duration = performance.now() - start;
    delay.disable();

    // Measured in the same run, so a busy machine slows both sides. Run in this thread, each tile held
    // the loop: 8 turns in the whole run, every wait a tile long, the longest 1.2-1.9 times the average
    // tile. In the thread: ~3000 turns, 99% of waits under 11 ms, the longest 20 ms on a quiet machine,
    // and under 0.5 of a tile with other processes loading both cores (the OS, not the model).
    const tile = duration / tiles;
    expect(delay.count).toBeGreaterThan(20 * tiles);
    expect(delay.percentile(99) / 1e6).toBeLessThan(tile / 4);
    expect(delay.max / 1e6).toBeLessThan(tile);
  });

  it('gives the pixels the model gives here, tile by tile, and leaves the input as it was', async () => {
    const image = noise(200, 150, 3); // 2 x 2 tiles
    const input = image.data.slice();
    const result = await converter.upscale(image, 'esrgan-slim-x2', never());
    expect(image.data).toEqual(input);

    const session = await sessionHere('esrgan-slim-x2');
    try {
      const expected = new Uint8Array(result.data.length);
      for (const tile of planTiles(200, 150, { tileSize: 128, overlap: 8 })) {
        // Uint8ClampedArray rounds and clamps as the thread does.
        const output = Uint8ClampedArray.from(await runHere(session, crop(image, tile)));
        for (let y = 0; y < tile.keepHeight * 2; y++) {
          const from = ((tile.keepY * 2 + y) * tile.width * 2 + tile.keepX * 2) * 3;
          const to = (((tile.y + tile.keepY) * 2 + y) * result.width + (tile.x + tile.keepX) * 2) * 3;
          expected.set(output.subarray(from, from + tile.keepWidth * 2 * 3), to);
        }
      }
      expect(Buffer.from(result.data).equals(Buffer.from(expected))).toBe(true);
    } finally {
      await session.release();
    }
  });

  it('runs one upscale at a time: one waiting is dropped at once when its signal aborts', async () => {
    const controller = new AbortController();
    const order: string[] = [];
    const first = converter.upscale(picture(200, 100), 'esrgan-slim-x2', never()).then(() => order.push('first'));
    const second = converter.upscale(picture(8, 8), 'esrgan-slim-x2', controller.signal);
    const third = converter.upscale(picture(8, 8), 'esrgan-slim-x2', never()).then(() => order.push('third'));
    controller.abort(new Error('gone'));

    await expect(second).rejects.toThrow('gone');
    expect(order).toEqual([]); // the first is still running
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
  });

  it('fails the upscale under way when the thread dies, and starts a new one for the next', async () => {
    const running = converter.upscale(picture(300, 140), 'esrgan-slim-x2', never(), {
      // A message the thread cannot read: an uncaught error there, as a crash, after the first tile.
      onProgress: () => (converter as unknown as { thread: Worker }).thread.postMessage(null),
    });

    await expect(running).rejects.toThrow(/^The ONNX inference thread failed: Cannot read properties of null/);
    await expect(converter.upscale(picture(8, 8), 'esrgan-slim-x2', never())).resolves.toMatchObject({ width: 16, height: 16 });
  });

  it('fails what is under way or waiting when closed, and starts again when asked', async () => {
    const closing = new OnnxImageConverter(modelsDir);
    const running = closing.upscale(picture(8, 8), 'esrgan-slim-x2', never());
    const waiting = closing.upscale(picture(8, 8), 'esrgan-slim-x2', never());
    await closing.close();

    await expect(running).rejects.toThrow('The image converter was closed');
    await expect(waiting).rejects.toThrow('The image converter was closed');
    await expect(closing.upscale(picture(8, 8), 'esrgan-slim-x2', never())).resolves.toMatchObject({ width: 16 });
    await closing.close();
  });
});

describe('the model build', () => {
  it('says to run the build when a model file is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-models-'));
    const missing = new OnnxImageConverter(empty);
    try {
      const failure = missing.upscale(picture(8, 8), 'esrgan-slim-x2', never());
      await expect(failure).rejects.toBeInstanceOf(Error);
      await expect(failure).rejects.toThrow(/^The ONNX model esrgan-slim-x2 is missing \(.*\): run `npm run build`/);
    } finally {
      await missing.close();
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
