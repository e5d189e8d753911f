// @ts-check (editors check the JSDoc types; the project's tsc reads no .js)
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, see below */

/**
 * The inference thread of OnnxUpscaler (onnx-upscaler.ts), which documents the
 * messages. ONNX Runtime's `session.run` blocks the event loop it is called on for a whole tile,
 * so the tiles run here, off the main thread. Plain JavaScript: a worker thread runs this file as
 * it is, both from src/ under jest (which transforms only what the test process imports) and from
 * dist/ after `npm run build` (where SWC re-emits it as the same CommonJS, and
 * scripts/bundle-server.mjs copies it beside the bundles whose `__dirname` looks for it).
 *
 * One upscale at a time; a cancel for it, or a close, is read between tiles. The converter never
 * terminates this thread: stopped inside ONNX Runtime, the native code aborts the whole process.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const { InferenceSession, Tensor } = require('onnxruntime-node');

/** @typedef {{ x: number; y: number; width: number; height: number }} Tile */
/** @typedef {{ model: string; width: number; height: number; context: number; tileWidth: number; tileHeight: number; tiles: Tile[] }} Pass */
/** @typedef {{ type: 'upscale'; id: number; pixels: ArrayBuffer; width: number; height: number; passes: Pass[] }} UpscaleRequest */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { modelsDir } = /** @type {{ modelsDir: string }} */ (workerData);

/** @type {Map<string, Promise<InferenceSession>>} Each model loaded once, on first use. */
const sessions = new Map();
/** @type {{ id: number; cancelled: boolean } | undefined} */
let current;
let queue = Promise.resolve();

port.on('message', (/** @type {UpscaleRequest | { type: 'cancel'; id: number } | { type: 'close' }} */ message) => {
  switch (message.type) {
    case 'upscale':
      queue = queue.then(() => upscale(message));
      break;
    case 'cancel':
      if (current?.id === message.id) current.cancelled = true;
      break;
    case 'close':
      // After the tile under way: the models are freed and the port closed, so the thread ends.
      if (current) current.cancelled = true;
      queue = queue.then(close);
      break;
  }
});

/** @param {UpscaleRequest} request */
async function upscale({ id, pixels, width, height, passes }) {
  const request = (current = { id, cancelled: false });
  try {
    const total = passes.reduce((sum, pass) => sum + pass.tiles.length, 0);
    let done = 0;
    /** @type {{ data: Uint8Array | Uint8ClampedArray; width: number; height: number }} */
    let image = { data: new Uint8Array(pixels), width, height };
    const grey = isGrey(image.data);
    for (const pass of passes) {
      const model = pass.model;
      const session = await sessionFor(model);
      if (pass.width !== image.width || pass.height !== image.height) throw new Error(`A pass planned for ${pass.width}x${pass.height} got ${image.width}x${image.height}`);
      /** @type {Uint8ClampedArray<ArrayBuffer> | undefined} */
      let out;
      let scale = 0;
      const [windowWidth, windowHeight] = [pass.tileWidth + 2 * pass.context, pass.tileHeight + 2 * pass.context];
      for (const tile of pass.tiles) {
        // A turn of the event loop, so that a cancel posted meanwhile is read.
        await new Promise((resolve) => setImmediate(resolve));
        if (request.cancelled) return port.postMessage({ type: 'aborted', id });
        const input = windowToNchw(image, tile.x - pass.context, tile.y - pass.context, windowWidth, windowHeight);
        const result = await session.run({ input: new Tensor('float32', input, [1, 3, windowHeight, windowWidth]) });
        const output = /** @type {import('onnxruntime-node').Tensor} */ (result.output);
        const [, channels, outHeight, outWidth] = /** @type {number[]} */ (output.dims);
        scale = /** @type {number} */ (outWidth) / pass.tileWidth;
        if (channels !== 3 || !Number.isInteger(scale) || outHeight !== pass.tileHeight * scale) {
          throw new Error(`Model ${model} answered ${output.dims.join('x')} for a ${windowWidth}x${windowHeight} window`);
        }
        out ??= new Uint8ClampedArray(image.width * scale * image.height * scale * 3);
        keepTile(/** @type {Float32Array} */ (output.data), tile, scale, pass.tileWidth * scale, out, image.width * scale);
        output.dispose();
        port.postMessage({ type: 'progress', id, done: ++done, total });
      }
      if (!out) throw new Error('No tiles to run');
      image = { data: out, width: image.width * scale, height: image.height * scale };
    }
    if (grey) toGrey(image.data);
    // Uint8ClampedArray clamps to 0-255 and rounds on assignment. Handed over, not copied.
    const result = /** @type {ArrayBuffer} */ (image.data.buffer);
    port.postMessage({ type: 'done', id, pixels: result, width: image.width, height: image.height }, [result]);
  } catch (error) {
    const { message, stack } = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ type: 'failed', id, message, stack });
  } finally {
    current = undefined;
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
  if (!session) {
    session = load(model);
    sessions.set(model, session);
    // A failed load is not cached: the next job tries again (after a build, say).
    session.catch(() => sessions.delete(model));
  }
  return session;
}

/** @param {string} model */
async function load(model) {
  const path = join(modelsDir, `${model}.onnx`);
  if (!existsSync(path)) {
    throw new Error(`The ONNX model ${model} is missing (${path}): run \`npm run build\`, which converts it from scripts/models/waifu2x`);
  }
  return InferenceSession.create(path, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
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

/** @param {ArrayLike<number>} rgb */
function isGrey(rgb) {
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i] !== rgb[i + 1] || rgb[i] !== rgb[i + 2]) return false;
  return true;
}

/**
 * Grey in, grey out: the models see colour channels and draw up to 14 levels of colour on the edges
 * of a grey picture (npm run bench:quality). Each pixel becomes the mean of its channels.
 * @param {Uint8Array | Uint8ClampedArray} rgb
 */
function toGrey(rgb) {
  for (let i = 0; i < rgb.length; i += 3) {
    const mean = Math.round((/** @type {number} */ (rgb[i]) + /** @type {number} */ (rgb[i + 1]) + /** @type {number} */ (rgb[i + 2])) / 3);
    rgb[i] = rgb[i + 1] = rgb[i + 2] = mean;
  }
}

/**
 * Copies the part of a tile's planar output that lies inside the image into the interleaved RGB result.
 * @param {Float32Array} output @param {Tile} tile @param {number} scale @param {number} tileOutWidth @param {Uint8ClampedArray} out @param {number} outWidth
 */
function keepTile(output, tile, scale, tileOutWidth, out, outWidth) {
  const plane = output.length / 3;
  const rows = tile.height * scale;
  const columns = tile.width * scale;
  for (let y = 0; y < rows; y++) {
    let target = ((tile.y * scale + y) * outWidth + tile.x * scale) * 3;
    for (let x = 0, source = y * tileOutWidth; x < columns; x++, source++, target += 3) {
      out[target] = /** @type {number} */ (output[source]);
      out[target + 1] = /** @type {number} */ (output[plane + source]);
      out[target + 2] = /** @type {number} */ (output[2 * plane + source]);
    }
  }
}
