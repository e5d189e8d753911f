// @ts-check (editors check the JSDoc types; the project's tsc reads no .js)
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, see below */

/**
 * The inference thread of OnnxImageConverter (onnx.image-converter.ts), which documents the
 * messages. ONNX Runtime's `session.run` blocks the event loop it is called on for a whole tile,
 * so the tiles run here, off the main thread. Plain JavaScript: a worker thread runs this file as
 * it is, both from src/ under jest (which transforms only what the test process imports) and from
 * dist/ after `npm run build` (where SWC re-emits it as the same CommonJS).
 *
 * One upscale at a time; a cancel for it, or a close, is read between tiles. The converter never
 * terminates this thread: stopped inside ONNX Runtime, the native code aborts the whole process.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const { InferenceSession, Tensor } = require('onnxruntime-node');

/** @typedef {{ x: number; y: number; width: number; height: number; keepX: number; keepY: number; keepWidth: number; keepHeight: number }} Tile */
/** @typedef {{ type: 'upscale'; id: number; model: string; pixels: ArrayBuffer; width: number; height: number; tiles: Tile[] }} UpscaleRequest */

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
async function upscale({ id, model, pixels, width, height, tiles }) {
  const request = (current = { id, cancelled: false });
  try {
    const session = await sessionFor(model);
    const image = new Uint8Array(pixels);
    /** @type {Uint8ClampedArray<ArrayBuffer> | undefined} */
    let out;
    let scale = 0;
    for (const [index, tile] of tiles.entries()) {
      // A turn of the event loop, so that a cancel posted meanwhile is read.
      await new Promise((resolve) => setImmediate(resolve));
      if (request.cancelled) return port.postMessage({ type: 'aborted', id });
      const result = await session.run({ input: new Tensor('float32', windowToNchw(image, width, tile), [1, 3, tile.height, tile.width]) });
      const output = /** @type {import('onnxruntime-node').Tensor} */ (result.output);
      const [, channels, outHeight, outWidth] = /** @type {number[]} */ (output.dims);
      if (!out) {
        scale = /** @type {number} */ (outWidth) / tile.width;
        if (channels !== 3 || !Number.isInteger(scale) || outHeight !== tile.height * scale) {
          throw new Error(`Model ${model} answered ${output.dims.join('x')} for a ${tile.width}x${tile.height} input`);
        }
        out = new Uint8ClampedArray(width * scale * height * scale * 3);
      }
      keepTile(/** @type {Float32Array} */ (output.data), tile, scale, out, width * scale);
      output.dispose();
      port.postMessage({ type: 'progress', id, done: index + 1, total: tiles.length });
    }
    if (!out) throw new Error('No tiles to run');
    // Uint8ClampedArray clamps to 0-255 and rounds on assignment. Handed over, not copied.
    port.postMessage({ type: 'done', id, pixels: out.buffer, width: width * scale, height: height * scale }, [out.buffer]);
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
    throw new Error(`The ONNX model ${model} is missing (${path}): run \`npm run build\`, which converts it from its npm package`);
  }
  return InferenceSession.create(path, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
}

/**
 * The tile's window of RGB bytes as planar float32 (the model's NCHW input, values 0-255).
 * @param {Uint8Array} image @param {number} imageWidth @param {Tile} tile
 */
function windowToNchw(image, imageWidth, tile) {
  const plane = tile.width * tile.height;
  const input = new Float32Array(3 * plane);
  for (let y = 0; y < tile.height; y++) {
    let source = ((tile.y + y) * imageWidth + tile.x) * 3;
    let target = y * tile.width;
    for (let x = 0; x < tile.width; x++, source += 3, target++) {
      input[target] = /** @type {number} */ (image[source]);
      input[plane + target] = /** @type {number} */ (image[source + 1]);
      input[2 * plane + target] = /** @type {number} */ (image[source + 2]);
    }
  }
  return input;
}

/**
 * Copies the kept part of a tile's planar output into the interleaved RGB result.
 * @param {Float32Array} output @param {Tile} tile @param {number} scale @param {Uint8ClampedArray} out @param {number} outWidth
 */
function keepTile(output, tile, scale, out, outWidth) {
  const tileWidth = tile.width * scale;
  const plane = tileWidth * tile.height * scale;
  const rows = tile.keepHeight * scale;
  const columns = tile.keepWidth * scale;
  for (let y = 0; y < rows; y++) {
    const sourceRow = (tile.keepY * scale + y) * tileWidth + tile.keepX * scale;
    let target = (((tile.y + tile.keepY) * scale + y) * outWidth + (tile.x + tile.keepX) * scale) * 3;
    for (let x = 0; x < columns; x++, target += 3) {
      const source = sourceRow + x;
      out[target] = /** @type {number} */ (output[source]);
      out[target + 1] = /** @type {number} */ (output[plane + source]);
      out[target + 2] = /** @type {number} */ (output[2 * plane + source]);
    }
  }
}
