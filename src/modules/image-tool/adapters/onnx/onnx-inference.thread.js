// @ts-check (editors check the JSDoc types; the project's tsc reads no .js)
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, see below */

/**
 * One inference thread of OnnxUpscaler (onnx-upscaler.ts), which documents the messages. ONNX
 * Runtime's `session.run` blocks the event loop it is called on for a whole tile, so the tiles run
 * here, off the main thread, on as many threads as the converter has. Plain JavaScript: a worker
 * thread runs this file as it is, both from src/ under jest (which transforms only what the test
 * process imports) and from dist/ after `npm run build` (where SWC re-emits it as the same CommonJS,
 * and scripts/bundle-server.mjs copies it beside the bundles whose `__dirname` looks for it).
 *
 * For each pass, the threads take tiles in turn from a counter they share, read the pass's input
 * from shared memory and write their tiles into one shared output; the stop flag (a cancel, a
 * failure, a close) is read between tiles. The converter never terminates a thread: stopped inside
 * ONNX Runtime, the native code aborts the whole process.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const { InferenceSession, Tensor } = require('onnxruntime-node');

/** @typedef {{ x: number; y: number; width: number; height: number }} Tile */
/** @typedef {{ width: number; height: number; context: number; tileWidth: number; tileHeight: number; tiles: Tile[] }} Pass */
/**
 * @typedef {{ type: 'pass'; id: number; model: string; pass: Pass; scale: number; input: SharedArrayBuffer; output: SharedArrayBuffer;
 *   control: SharedArrayBuffer; grey: boolean }} PassRequest
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { modelsDir, sessionOptions = {} } = /** @type {{ modelsDir: string; sessionOptions?: import('onnxruntime-node').InferenceSession.SessionOptions }} */ (workerData);
/** Sessions kept loaded: an upscale runs at most two models (a denoiser, then the plain 2x), and each session holds its weights and its arena. */
const KEEP_SESSIONS = 2;

/** @type {Map<string, Promise<InferenceSession>>} Each model loaded once, on first use; the least recently used dropped past KEEP_SESSIONS. */
const sessions = new Map();
let queue = Promise.resolve();

port.on('message', (/** @type {PassRequest | { type: 'close' }} */ message) => {
  switch (message.type) {
    case 'pass':
      queue = queue.then(() => runPass(message));
      break;
    case 'close':
      // After the tile under way (the converter raised the stop flag): the models are freed and the port closed, so the thread ends.
      queue = queue.then(close);
      break;
  }
});

/** @param {PassRequest} request */
async function runPass({ id, model, pass, scale, input, output, control, grey }) {
  const flags = new Int32Array(control);
  try {
    const session = await sessionFor(model);
    const image = { data: new Uint8Array(input), width: pass.width, height: pass.height };
    const out = new Uint8ClampedArray(output);
    const [windowWidth, windowHeight] = [pass.tileWidth + 2 * pass.context, pass.tileHeight + 2 * pass.context];
    for (;;) {
      if (Atomics.load(flags, 1)) break;
      const tile = pass.tiles[Atomics.add(flags, 0, 1)];
      if (!tile) break;
      const window = windowToNchw(image, tile.x - pass.context, tile.y - pass.context, windowWidth, windowHeight);
      const result = await session.run({ input: new Tensor('float32', window, [1, 3, windowHeight, windowWidth]) });
      const tensor = /** @type {import('onnxruntime-node').Tensor} */ (result.output);
      const [, channels, outHeight, outWidth] = /** @type {number[]} */ (tensor.dims);
      if (channels !== 3 || outWidth !== pass.tileWidth * scale || outHeight !== pass.tileHeight * scale) {
        throw new Error(`Model ${model} answered ${tensor.dims.join('x')} for a ${windowWidth}x${windowHeight} window`);
      }
      keepTile(/** @type {Float32Array} */ (tensor.data), tile, scale, pass.tileWidth * scale, out, pass.width * scale, grey);
      tensor.dispose();
      port.postMessage({ type: 'tile', id });
    }
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ type: 'failed', id, message, stack });
  } finally {
    port.postMessage({ type: 'pass-end', id });
  }
}

async function close() {
  const loaded = await Promise.allSettled(sessions.values());
  sessions.clear();
  for (const session of loaded) if (session.status === 'fulfilled') await session.value.release();
  port.close();
}

/** @param {string} model */
function sessionFor(model) {
  let session = sessions.get(model);
  if (session) {
    sessions.delete(model); // to the end: the most recently used
  } else {
    session = load(model);
    // A failed load is not cached: the next job tries again (after a build, say).
    session.catch(() => sessions.get(model) === session && sessions.delete(model));
  }
  sessions.set(model, session);
  for (const [stale, loaded] of sessions) {
    if (sessions.size <= KEEP_SESSIONS) break;
    sessions.delete(stale);
    loaded.then((s) => s.release()).catch(() => {});
  }
  return session;
}

/** @param {string} model */
async function load(model) {
  const path = join(modelsDir, `${model}.onnx`);
  if (!existsSync(path)) {
    throw new Error(`The ONNX model ${model} is missing (${path}): run \`npm run build\`, which converts it from scripts/models/waifu2x`);
  }
  // One CPU thread per session: the converter runs one session per inference thread. Measured on a
  // 1024 px CUnet input (docs/benchmarks.md): 2 such threads 10.4 CPU-s, one session on 2 ORT threads
  // 15.8 (11.8 without spinning, hence the option, for whoever raises intraOpNumThreads); the arena
  // off 11.8, graph optimisations 'basic' 12.6.
  return InferenceSession.create(path, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    extra: { session: { intra_op: { allow_spinning: '0' } } },
    ...sessionOptions,
  });
}

/**
 * A window of the image as planar float32 (the model's NCHW input, values 0-255). Where the window
 * reaches past the image, the edge pixels are repeated, as waifu2x's own programs pad.
 * @param {{ data: ArrayLike<number>; width: number; height: number }} image @param {number} left @param {number} top @param {number} width @param {number} height
 */
function windowToNchw(image, left, top, width, height) {
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  const columns = Int32Array.from({ length: width }, (_, x) => Math.min(Math.max(left + x, 0), image.width - 1) * 3);
  for (let y = 0; y < height; y++) {
    const row = Math.min(Math.max(top + y, 0), image.height - 1) * image.width * 3;
    for (let x = 0, target = y * width; x < width; x++, target++) {
      const source = row + /** @type {number} */ (columns[x]);
      input[target] = /** @type {number} */ (image.data[source]);
      input[plane + target] = /** @type {number} */ (image.data[source + 1]);
      input[2 * plane + target] = /** @type {number} */ (image.data[source + 2]);
    }
  }
  return input;
}

/**
 * Copies the part of a tile's planar output that lies inside the image into the interleaved RGB
 * result (Uint8ClampedArray: clamped to 0-255 and rounded). `grey`: each pixel becomes the mean of its
 * channels. Grey in, grey out: the models see colour channels and draw up to 14 levels of colour on
 * the edges of a grey picture (npm run bench:quality).
 * @param {Float32Array} output @param {Tile} tile @param {number} scale @param {number} tileOutWidth @param {Uint8ClampedArray} out @param {number} outWidth @param {boolean} grey
 */
function keepTile(output, tile, scale, tileOutWidth, out, outWidth, grey) {
  const plane = output.length / 3;
  const rows = tile.height * scale;
  const columns = tile.width * scale;
  for (let y = 0; y < rows; y++) {
    let target = ((tile.y * scale + y) * outWidth + tile.x * scale) * 3;
    for (let x = 0, source = y * tileOutWidth; x < columns; x++, source++, target += 3) {
      if (grey) {
        // Clamped and rounded first, then the mean, as before the threads.
        const sum = clamp(/** @type {number} */ (output[source])) + clamp(/** @type {number} */ (output[plane + source])) + clamp(/** @type {number} */ (output[2 * plane + source]));
        out[target] = out[target + 1] = out[target + 2] = Math.round(sum / 3);
      } else {
        out[target] = /** @type {number} */ (output[source]);
        out[target + 1] = /** @type {number} */ (output[plane + source]);
        out[target + 2] = /** @type {number} */ (output[2 * plane + source]);
      }
    }
  }
}

/** What a Uint8ClampedArray stores: 0-255, rounded half to even. @param {number} value */
function clamp(value) {
  CLAMP[0] = value;
  return /** @type {number} */ (CLAMP[0]);
}
const CLAMP = new Uint8ClampedArray(1);
