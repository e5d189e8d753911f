import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AiModelId, RgbImage } from 'src/modules/image-tool/domain/conversions';

export interface TileOptions {
  /** The most each tile produces, per side, in pixels of the pass's input (its window adds the model's context). */
  tileSize: number;
}

export interface UpscaleOptions {
  /** Called after each tile, counting the tiles of every pass (for a progress bar). */
  onProgress?: (tilesDone: number, tilesTotal: number) => void;
}

/**
 * 128 px: the least CPU for CUnet on a 512 px input (5.4 s, against 5.8 s in 256 px tiles and 8.5 s
 * untiled, which also peaks at 1.8 GB), and 330 MB of memory in all.
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

/** One doubling of the image: every tile runs in a window of the same size, read with edge-replicated borders. */
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

/** Messages to the inference thread. */
type ToThread =
  | { type: 'upscale'; id: number; pixels: ArrayBuffer; width: number; height: number; passes: (Pass & { model: AiModelId })[] }
  | { type: 'cancel'; id: number }
  | { type: 'close' };

/** Messages from the inference thread, each about one upscale. */
type FromThread =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'done'; id: number; pixels: ArrayBuffer; width: number; height: number }
  | { type: 'aborted'; id: number }
  | { type: 'failed'; id: number; message: string; stack?: string };

type Outcome = { result: RgbImage } | { error: unknown };

interface Request {
  id: number;
  message: Extract<ToThread, { type: 'upscale' }>;
  signal: AbortSignal;
  onProgress?: UpscaleOptions['onProgress'];
  settle(outcome: Outcome): void;
}

/**
 * Runs the waifu2x models that scripts/build-models.mjs converts to ONNX (NCHW float32, pixel values
 * 0-255) on the CPU, in tiles, in a worker thread: ONNX Runtime blocks the event loop it runs on for
 * a whole tile (about 0.3 s), and without Redis the web process runs the jobs itself. Each tile is
 * read with the model's context around it, edge-replicated where the image ends, as waifu2x's own
 * programs pad; `passes` runs the model again on its own output (two passes: 4x). One thread per
 * converter, started on the first upscale, running one upscale at a time (the others wait here) on
 * one CPU thread; it loads each model once, on first use. A thread that dies fails its upscale, and
 * the next one starts a new thread.
 */
export class OnnxUpscaler {
  private readonly tiles: TileOptions;
  private readonly waiting: Request[] = [];
  private thread?: Worker;
  private running?: Request;
  private lastId = 0;
  private readonly geometries = new Map<AiModelId, ModelGeometry>();

  constructor(
    private readonly modelsDir = resolve('dist/models'),
    tiles: Partial<TileOptions> = {},
  ) {
    this.tiles = { ...DEFAULT_TILES, ...tiles };
  }

  /** The converter over the models an `npm run build` in `rootDir` wrote. */
  static inBuild(rootDir: string): OnnxUpscaler {
    return new OnnxUpscaler(join(rootDir, 'dist/models'));
  }

  /**
   * Runs each of `models` in turn, each on the last one's output (a x2 model doubles the size, a x1
   * model keeps it). Rejects with the signal's reason once it aborts: at once while waiting, after
   * the current tile while running.
   */
  upscale(image: RgbImage, models: readonly AiModelId[], signal: AbortSignal, options: UpscaleOptions = {}): Promise<RgbImage> {
    const { width, height } = image;
    if (!(width >= 1 && height >= 1) || image.data.length !== width * height * 3) {
      return Promise.reject(new Error(`Not an RGB image: ${image.data.length} bytes for ${width}x${height}`));
    }
    if (models.length < 1) return Promise.reject(new Error('No model to run'));
    if (signal.aborted) return Promise.reject(signal.reason);
    let plan: (Pass & { model: AiModelId })[];
    try {
      plan = planPasses(width, height, models.map((model) => ({ model, geometry: this.geometry(model) })), this.tiles);
    } catch (error) {
      return Promise.reject(error);
    }
    const id = ++this.lastId;
    // A copy (under 1 ms for 512x512) is handed over, not the caller's buffer: the runner still encodes
    // the input as the preview after converting, and a transferred buffer is left empty.
    const pixels = image.data.slice().buffer;
    const message = { type: 'upscale', id, pixels, width, height, passes: plan } as const;
    return new Promise<RgbImage>((resolvePromise, reject) => {
      const onAbort = () => this.cancel(request);
      const request: Request = {
        id,
        message,
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
   * Upscales not finished yet fail at once; the thread frees the models and ends after the tile under
   * way. Not `worker.terminate()`: a thread stopped inside ONNX Runtime aborts the whole process.
   * A later upscale starts a new thread.
   */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    const closed = new Error('The image converter was closed');
    for (const request of [...(this.running ? [this.running] : []), ...this.waiting.splice(0)]) request.settle({ error: closed });
    this.running = undefined;
    if (!thread) return;
    const exited = new Promise((resolveExit) => thread.once('exit', resolveExit));
    thread.ref(); // the process waits for the thread's own end
    thread.postMessage({ type: 'close' } satisfies ToThread);
    await exited;
  }

  private next(): void {
    if (this.running) return;
    const request = this.waiting.shift();
    if (!request) return;
    this.running = request;
    try {
      const thread = (this.thread ??= this.startThread());
      thread.ref(); // an upscale under way keeps the process alive; an idle thread does not
      thread.postMessage(request.message satisfies ToThread, [request.message.pixels]);
    } catch (error) {
      this.finish(request, { error });
    }
  }

  private finish(request: Request, outcome: Outcome): void {
    if (this.running !== request) return;
    this.running = undefined;
    this.thread?.unref();
    request.settle(outcome);
    this.next();
  }

  private cancel(request: Request): void {
    const index = this.waiting.indexOf(request);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      request.settle({ error: request.signal.reason });
    } else if (this.running === request) {
      this.thread?.postMessage({ type: 'cancel', id: request.id } satisfies ToThread);
    }
  }

  private startThread(): Worker {
    const thread = new Worker(THREAD_FILE, { name: 'onnx-inference', workerData: { modelsDir: this.modelsDir } });
    thread.on('message', (message: FromThread) => this.onMessage(message));
    // After an 'error', the 'exit' that follows finds this thread forgotten already.
    thread.on('error', (error) => this.onThreadEnd(thread, `failed: ${error.message}`));
    thread.on('exit', (code) => this.onThreadEnd(thread, `stopped (exit code ${code})`));
    return thread;
  }

  private onMessage(message: FromThread): void {
    const request = this.running;
    if (request?.id !== message.id) return;
    switch (message.type) {
      case 'progress':
        // Once aborted, the caller hears nothing more but the rejection.
        if (!request.signal.aborted) request.onProgress?.(message.done, message.total);
        return;
      case 'done':
        if (request.signal.aborted) return this.finish(request, { error: request.signal.reason });
        return this.finish(request, { result: { data: new Uint8Array(message.pixels), width: message.width, height: message.height } });
      case 'aborted':
        return this.finish(request, { error: request.signal.reason });
      case 'failed': {
        const error = new Error(message.message);
        if (message.stack) error.stack = message.stack; // where in the thread it failed
        return this.finish(request, { error });
      }
    }
  }

  private onThreadEnd(thread: Worker, how: string): void {
    if (this.thread !== thread) return; // closed, or replaced already
    this.thread = undefined;
    const request = this.running;
    if (request) this.finish(request, { error: new Error(`The ONNX inference thread ${how}`) });
  }
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

/** The tiles of one pass over a width x height input, in order (the thread runs them in onnx-inference.thread.js). */
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
