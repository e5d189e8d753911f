import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AiModelId, RgbImage } from 'src/modules/image-tool/domain/conversions';

export interface TileOptions {
  /** Side of the square each tile contributes to the output, in input pixels. */
  tileSize: number;
  /** Context read around each tile and cut from its output, so seams do not show. */
  overlap: number;
}

export interface UpscaleOptions {
  /** Called after each tile (for a progress bar). */
  onProgress?: (tilesDone: number, tilesTotal: number) => void;
}

/** 128 px tiles with 8 px of context: untiled, a 512x512 medium 2x run peaks at 3.1 GB (issue 9). */
const DEFAULT_TILES: TileOptions = { tileSize: 128, overlap: 8 };

/** One run of the model: where its input window is, and which part of its output is kept. */
export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
  keepX: number;
  keepY: number;
  keepWidth: number;
  keepHeight: number;
}

/** The thread's code: plain CommonJS, run as it is from src/ (jest) and from dist/ (SWC re-emits it). */
const THREAD_FILE = join(__dirname, 'onnx-inference.thread.js');

/** Messages to the inference thread. */
type ToThread =
  | { type: 'upscale'; id: number; model: AiModelId; pixels: ArrayBuffer; width: number; height: number; tiles: Tile[] }
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
 * Runs the ESRGAN models that scripts/build-models.mjs converts to ONNX (NCHW float32, pixel values
 * 0-255) on the CPU, in tiles, in a worker thread: ONNX Runtime blocks the event loop it runs on for
 * a whole tile (0.3-0.5 s), and without Redis the web process runs the jobs itself. One thread per
 * converter, started on the first upscale, running one upscale at a time (the others wait here) on
 * one CPU thread; it loads each model once, on first use. A thread that dies fails its upscale, and
 * the next one starts a new thread.
 */
export class OnnxImageConverter {
  private readonly tiles: TileOptions;
  private readonly waiting: Request[] = [];
  private thread?: Worker;
  private running?: Request;
  private lastId = 0;

  constructor(
    private readonly modelsDir = resolve('dist/models'),
    tiles: Partial<TileOptions> = {},
  ) {
    this.tiles = { ...DEFAULT_TILES, ...tiles };
  }

  /** The converter over the models an `npm run build` in `rootDir` wrote. */
  static inBuild(rootDir: string): OnnxImageConverter {
    return new OnnxImageConverter(join(rootDir, 'dist/models'));
  }

  /** Rejects with the signal's reason once it aborts: at once while waiting, after the current tile while running. */
  upscale(image: RgbImage, model: AiModelId, signal: AbortSignal, options: UpscaleOptions = {}): Promise<RgbImage> {
    const { width, height } = image;
    if (!(width >= 1 && height >= 1) || image.data.length !== width * height * 3) {
      return Promise.reject(new Error(`Not an RGB image: ${image.data.length} bytes for ${width}x${height}`));
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = ++this.lastId;
    // A copy (under 1 ms for 512x512) is handed over, not the caller's buffer: the runner still encodes
    // the input as the preview after converting, and a transferred buffer is left empty.
    const pixels = image.data.slice().buffer;
    const message = { type: 'upscale', id, model, pixels, width, height, tiles: planTiles(width, height, this.tiles) } as const;
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
 * Splits one side into near-equal parts of at most `tileSize`, each read with `overlap` pixels of
 * context where the image has them. Windows are all of one size (tileSize + 2 * overlap, or the
 * whole side), shifted inward at the edges, which keeps more context and one shape for the runtime.
 */
function planAxis(length: number, { tileSize, overlap }: TileOptions) {
  const parts = Math.ceil(length / tileSize);
  const window = Math.min(length, tileSize + 2 * overlap);
  return Array.from({ length: parts }, (_, i) => {
    const keepStart = Math.round((i * length) / parts);
    const keepEnd = Math.round(((i + 1) * length) / parts);
    const start = Math.min(Math.max(keepStart - overlap, 0), length - window);
    return { start, size: window, keep: keepStart - start, keepSize: keepEnd - keepStart };
  });
}

/** The tiles the thread runs, in order (the thread converts their pixels, in onnx-inference.thread.js). */
export function planTiles(width: number, height: number, options: TileOptions): Tile[] {
  const columns = planAxis(width, options);
  return planAxis(height, options).flatMap((row) =>
    columns.map((column) => ({
      x: column.start,
      y: row.start,
      width: column.size,
      height: row.size,
      keepX: column.keep,
      keepY: row.keep,
      keepWidth: column.keepSize,
      keepHeight: row.keepSize,
    })),
  );
}
