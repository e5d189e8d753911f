import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AiModelId, RgbImage } from 'src/modules/image-tool/domain/conversions';

export interface TileOptions {
  /** The most each tile produces, per side, in pixels of the pass's input (its window adds the model's context). */
  tileSize: number;
}

export interface UpscaleOptions {
  /** Called after each tile, counting the tiles of every pass on every thread (for a progress bar). */
  onProgress?: (tilesDone: number, tilesTotal: number) => void;
}

export interface OnnxUpscalerOptions extends Partial<TileOptions> {
  /** Where `npm run build` wrote the models (default dist/models under the working directory). */
  modelsDir?: string;
  /** Inference threads one upscale's tiles are spread over (config.images.threads; default 1). */
  threads?: number;
  /** ONNX Runtime session options over ours (intraOpNumThreads 1, sequential, all optimisations): for the bench's trials. */
  sessionOptions?: Record<string, unknown>;
}

/**
 * 128 px: the least CPU for CUnet on a 512 px input (5.4 s, against 5.8 s in 256 px tiles and 8.5 s
 * untiled, which also peaks at 1.8 GB), and 330 MB of memory in all. docs/benchmarks.md has the
 * figures at 2048 px.
 */
const DEFAULT_TILES: TileOptions = { tileSize: 128 };

/** What scripts/build-models.mjs writes beside each model: output = scale x (window - 2 x context). */
export interface ModelGeometry {
  scale: number;
  context: number;
  /** The window's inner part must be a multiple of this (strided layers halve it). */
  multiple: number;
}

/** One run of the model: the part of the pass's input it produces (its window adds `context` on each side). */
export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One run of a model over the image: every tile runs in a window of the same size, read with edge-replicated borders. */
export interface Pass {
  width: number;
  height: number;
  context: number;
  /** The inner size of every window: a tile at the image's right or bottom edge keeps less of its output. */
  tileWidth: number;
  tileHeight: number;
  tiles: Tile[];
}

/** The thread's code: plain CommonJS, run as it is from src/ (jest) and from dist/ (SWC re-emits it; the bundler copies it beside the bundle). */
const THREAD_FILE = join(__dirname, 'onnx-inference.thread.js');

/**
 * Messages to an inference thread. `control` is shared by every thread of an upscale: [0] the next
 * tile to take (Atomics.add), [1] non-zero once the upscale is cancelled or failed.
 */
type ToThread =
  | {
      type: 'pass';
      id: number;
      model: AiModelId;
      pass: Pass;
      scale: number;
      input: SharedArrayBuffer;
      output: SharedArrayBuffer;
      control: SharedArrayBuffer;
      /** Write each pixel as the mean of its channels (the last pass of a grey input). */
      grey: boolean;
    }
  | { type: 'close' };

/** Messages from an inference thread, each about one pass of one upscale. */
type FromThread =
  | { type: 'tile'; id: number }
  /** The thread took no more tiles of this pass: none left, or it was cancelled. */
  | { type: 'pass-end'; id: number }
  | { type: 'failed'; id: number; message: string; stack?: string };

type Outcome = { result: RgbImage } | { error: unknown };

interface Request {
  id: number;
  image: RgbImage;
  passes: (Pass & { model: AiModelId; scale: number })[];
  signal: AbortSignal;
  onProgress?: UpscaleOptions['onProgress'];
  settle(outcome: Outcome): void;
}

/** The state of the upscale under way. */
interface Running {
  request: Request;
  control: Int32Array;
  /** The pass under way, its output, and the threads that have not ended it yet. */
  pass: number;
  input: SharedArrayBuffer;
  output: SharedArrayBuffer;
  busy: Set<Worker>;
  done: number;
  total: number;
  grey: boolean;
  /** Set once it is cancelled or failed: settled as soon as every thread has left the pass. */
  error?: unknown;
}

/**
 * Runs the waifu2x models that scripts/build-models.mjs converts to ONNX (NCHW float32, pixel values
 * 0-255) on the CPU, in tiles, on a pool of worker threads: ONNX Runtime blocks the event loop it
 * runs on for a whole tile (about 0.3 s), and without Redis the web process runs the jobs itself.
 * Each tile is read with the model's context around it, edge-replicated where the image ends, as
 * waifu2x's own programs pad. `threads` threads, each with its own ONNX session per model on one CPU
 * thread, take the tiles of one pass in turn from a shared counter, read the pass's input from a
 * SharedArrayBuffer and write their part of one shared output; the next pass starts when every
 * thread has left the last one. One upscale at a time per converter (the others wait here). Threads
 * start on the first upscale and load each model once, on first use. A thread that dies fails its
 * upscale, and the next upscale starts a new one in its place.
 */
export class OnnxUpscaler {
  private readonly tiles: TileOptions;
  private readonly modelsDir: string;
  readonly threads: number;
  private readonly waiting: Request[] = [];
  private readonly pool = new Set<Worker>();
  private running?: Running;
  private lastId = 0;
  private readonly geometries = new Map<AiModelId, ModelGeometry>();
  private readonly sessionOptions: Record<string, unknown>;

  constructor({ modelsDir = resolve('dist/models'), threads = 1, sessionOptions = {}, ...tiles }: OnnxUpscalerOptions = {}) {
    if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) throw new Error(`threads must be an integer from 1 to 64, not ${threads}`);
    this.modelsDir = modelsDir;
    this.threads = threads;
    this.sessionOptions = sessionOptions;
    this.tiles = { ...DEFAULT_TILES, ...tiles };
  }

  /** The converter over the models an `npm run build` in `rootDir` wrote. */
  static inBuild(rootDir: string, options: Omit<OnnxUpscalerOptions, 'modelsDir'> = {}): OnnxUpscaler {
    return new OnnxUpscaler({ ...options, modelsDir: join(rootDir, 'dist/models') });
  }

  /**
   * Runs each of `models` in turn, each on the last one's output (a x2 model doubles the size, a x1
   * model keeps it). Rejects with the signal's reason once it aborts: at once while waiting, once
   * every thread has finished its tile while running.
   */
  upscale(image: RgbImage, models: readonly AiModelId[], signal: AbortSignal, options: UpscaleOptions = {}): Promise<RgbImage> {
    const { width, height } = image;
    if (!(width >= 1 && height >= 1) || image.data.length !== width * height * 3) {
      return Promise.reject(new Error(`Not an RGB image: ${image.data.length} bytes for ${width}x${height}`));
    }
    if (models.length < 1) return Promise.reject(new Error('No model to run'));
    if (signal.aborted) return Promise.reject(signal.reason);
    let passes: Request['passes'];
    try {
      const geometries = models.map((model) => ({ model, geometry: this.geometry(model) }));
      passes = planPasses(width, height, geometries, this.tiles).map((pass, i) => ({ ...pass, scale: geometries[i]!.geometry.scale }));
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<RgbImage>((resolvePromise, reject) => {
      const onAbort = () => this.cancel(request);
      const request: Request = {
        id: ++this.lastId,
        image,
        passes,
        signal,
        onProgress: options.onProgress,
        settle: (outcome) => {
          signal.removeEventListener('abort', onAbort);
          if ('result' in outcome) resolvePromise(outcome.result);
          else reject(outcome.error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(request);
      this.next();
    });
  }

  /** The model's geometry, written by the build beside it; read once. */
  private geometry(model: AiModelId): ModelGeometry {
    let geometry = this.geometries.get(model);
    if (!geometry) {
      const path = join(this.modelsDir, `${model}.json`);
      if (!existsSync(path)) {
        throw new Error(`The ONNX model ${model} is missing (${path}): run \`npm run build\`, which converts it from scripts/models/waifu2x`);
      }
      geometry = JSON.parse(readFileSync(path, 'utf8')) as ModelGeometry;
      this.geometries.set(model, geometry);
    }
    return geometry;
  }

  /**
   * Upscales not finished yet fail at once; the threads free the models and end after the tile under
   * way. Not `worker.terminate()`: a thread stopped inside ONNX Runtime aborts the whole process.
   * A later upscale starts new threads.
   */
  async close(): Promise<void> {
    const threads = [...this.pool];
    this.pool.clear();
    const closed = new Error('The image converter was closed');
    const running = this.running;
    this.running = undefined;
    if (running) {
      Atomics.store(running.control, 1, 1);
      running.request.settle({ error: closed });
    }
    for (const request of this.waiting.splice(0)) request.settle({ error: closed });
    await Promise.all(
      threads.map((thread) => {
        const exited = new Promise((resolveExit) => thread.once('exit', resolveExit));
        thread.ref(); // the process waits for the thread's own end
        thread.postMessage({ type: 'close' } satisfies ToThread);
        return exited;
      }),
    );
  }

  private next(): void {
    if (this.running) return;
    const request = this.waiting.shift();
    if (!request) return;
    try {
      while (this.pool.size < this.threads) this.pool.add(this.startThread());
      const { data, width, height } = request.image;
      // A copy into memory the threads share (under 10 ms for 2048 x 2048): the caller's buffer stays
      // as it was (the runner still encodes the input as the preview).
      const input = new SharedArrayBuffer(data.length);
      new Uint8Array(input).set(data);
      const total = request.passes.reduce((sum, pass) => sum + pass.tiles.length, 0);
      this.running = { request, control: new Int32Array(new SharedArrayBuffer(8)), pass: -1, input, output: input, busy: new Set(), done: 0, total, grey: isGrey(data, width * height) };
      for (const thread of this.pool) thread.ref(); // an upscale under way keeps the process alive; idle threads do not
      this.startPass(this.running);
    } catch (error) {
      this.running = undefined;
      request.settle({ error });
      this.next();
    }
  }

  /** Hands the next pass to every thread, or settles the upscale after the last one. */
  private startPass(running: Running): void {
    const { request, control } = running;
    if (running.error === undefined && running.pass + 1 === request.passes.length) {
      const { width, height, scale } = request.passes[running.pass]!;
      // Copied out of shared memory (about 20 ms for 4096 x 4096): callers get an ordinary buffer.
      return this.finish(running, { result: { data: new Uint8Array(running.output).slice(), width: width * scale, height: height * scale } });
    }
    if (running.error !== undefined) return this.finish(running, { error: running.error });
    const index = ++running.pass;
    const { model, scale, ...pass } = request.passes[index]!;
    running.input = running.output;
    running.output = new SharedArrayBuffer(pass.width * scale * pass.height * scale * 3);
    Atomics.store(control, 0, 0);
    const grey = running.grey && index === request.passes.length - 1;
    for (const thread of this.pool) {
      running.busy.add(thread);
      thread.postMessage({ type: 'pass', id: request.id, model, pass, scale, input: running.input, output: running.output, control: control.buffer as SharedArrayBuffer, grey } satisfies ToThread);
    }
  }

  private finish(running: Running, outcome: Outcome): void {
    if (this.running !== running) return;
    this.running = undefined;
    for (const thread of this.pool) thread.unref();
    running.request.settle(outcome);
    this.next();
  }

  /** Stops the upscale after the tiles under way; settled once every thread has left the pass. */
  private fail(running: Running, error: unknown): void {
    running.error ??= error;
    Atomics.store(running.control, 1, 1);
    if (running.busy.size === 0) this.finish(running, { error: running.error });
  }

  private cancel(request: Request): void {
    const index = this.waiting.indexOf(request);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      request.settle({ error: request.signal.reason });
    } else if (this.running?.request === request) {
      this.fail(this.running, request.signal.reason);
    }
  }

  private startThread(): Worker {
    const thread = new Worker(THREAD_FILE, { name: 'onnx-inference', workerData: { modelsDir: this.modelsDir, sessionOptions: this.sessionOptions } });
    thread.unref();
    thread.on('message', (message: FromThread) => this.onMessage(thread, message));
    // After an 'error', the 'exit' that follows finds this thread forgotten already.
    thread.on('error', (error) => this.onThreadEnd(thread, `failed: ${error.message}`));
    thread.on('exit', (code) => this.onThreadEnd(thread, `stopped (exit code ${code})`));
    return thread;
  }

  private onMessage(thread: Worker, message: FromThread): void {
    const running = this.running;
    if (running?.request.id !== message.id) return; // a thread leaving an upscale already settled
    const { request } = running;
    switch (message.type) {
      case 'tile':
        running.done++;
        // Once aborted, the caller hears nothing more but the rejection.
        if (running.error === undefined && !request.signal.aborted) request.onProgress?.(running.done, running.total);
        return;
      case 'failed': {
        const error = new Error(message.message);
        if (message.stack) error.stack = message.stack; // where in the thread it failed
        return this.fail(running, error);
      }
      case 'pass-end':
        running.busy.delete(thread);
        if (running.busy.size === 0) this.startPass(running);
        return;
    }
  }

  private onThreadEnd(thread: Worker, how: string): void {
    if (!this.pool.delete(thread)) return; // closed, or replaced already
    const running = this.running;
    if (!running) return;
    running.busy.delete(thread);
    // The other threads stop after their tile; their tiles are not needed any more.
    this.fail(running, new Error(`The ONNX inference thread ${how}`));
  }
}

/** Whether every pixel has R = G = B. */
function isGrey(rgb: Uint8Array, pixels: number): boolean {
  for (let i = 0; i < pixels * 3; i += 3) if (rgb[i] !== rgb[i + 1] || rgb[i] !== rgb[i + 2]) return false;
  return true;
}

/**
 * Splits one side into near-equal parts of at most `tileSize` (rounded up to the model's multiple):
 * every window has the same inner size, so the runtime sees one shape; the last part keeps only
 * what lies inside the image.
 */
function planAxis(length: number, tileSize: number, multiple: number) {
  const parts = Math.ceil(length / tileSize);
  const size = Math.ceil(Math.ceil(length / parts) / multiple) * multiple;
  const starts = Array.from({ length: parts }, (_, i) => i * size).filter((start) => start < length);
  return { size, parts: starts.map((start) => ({ start, keep: Math.min(size, length - start) })) };
}

/** The tiles of one pass over a width x height input, in order (the threads run them in onnx-inference.thread.js). */
export function planTiles(width: number, height: number, { context, multiple }: ModelGeometry, { tileSize }: TileOptions): Pass {
  const columns = planAxis(width, tileSize, multiple);
  const rows = planAxis(height, tileSize, multiple);
  const tiles = rows.parts.flatMap((row) => columns.parts.map((column) => ({ x: column.start, y: row.start, width: column.keep, height: row.keep })));
  return { width, height, context, tileWidth: columns.size, tileHeight: rows.size, tiles };
}

/** Every pass's tiles, with the model it runs: each pass's input is the last one's output. */
export function planPasses<M>(width: number, height: number, models: { model: M; geometry: ModelGeometry }[], tiles: TileOptions): (Pass & { model: M })[] {
  let [w, h] = [width, height];
  return models.map(({ model, geometry }) => {
    const pass = { ...planTiles(w, h, geometry, tiles), model };
    [w, h] = [w * geometry.scale, h * geometry.scale];
    return pass;
  });
}
