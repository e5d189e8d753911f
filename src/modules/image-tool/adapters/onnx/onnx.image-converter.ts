import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
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
interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
  keepX: number;
  keepY: number;
  keepWidth: number;
  keepHeight: number;
}

/**
 * Runs the ESRGAN models that scripts/build-models.mjs converts to ONNX (NCHW float32, pixel values
 * 0-255) on the CPU, one thread per run, in tiles. Each model is loaded once per process, on first use.
 */
export class OnnxImageConverter {
  private readonly sessions = new Map<AiModelId, Promise<InferenceSession>>();
  private readonly tiles: TileOptions;

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

  async upscale(image: RgbImage, model: AiModelId, signal: AbortSignal, options: UpscaleOptions = {}): Promise<RgbImage> {
    const { width, height } = image;
    if (!(width >= 1 && height >= 1) || image.data.length !== width * height * 3) {
      throw new Error(`Not an RGB image: ${image.data.length} bytes for ${width}x${height}`);
    }
    signal.throwIfAborted();
    const session = await this.session(model);
    const tiles = planTiles(width, height, this.tiles);
    let out: Uint8ClampedArray | undefined;
    let scale = 0;
    for (const [index, tile] of tiles.entries()) {
      signal.throwIfAborted();
      const result = await session.run({ input: new Tensor('float32', windowToNchw(image, tile), [1, 3, tile.height, tile.width]) });
      const output = result.output as Tensor;
      const [, channels, outHeight, outWidth] = output.dims as number[];
      if (!out) {
        scale = outWidth! / tile.width;
        if (channels !== 3 || !Number.isInteger(scale) || outHeight !== tile.height * scale) {
          throw new Error(`Model ${model} answered ${output.dims.join('x')} for a ${tile.width}x${tile.height} input`);
        }
        out = new Uint8ClampedArray(width * scale * height * scale * 3);
      }
      keepTile(output.data as Float32Array, tile, scale, out, width * scale);
      output.dispose();
      options.onProgress?.(index + 1, tiles.length);
    }
    // Uint8ClampedArray clamps to 0-255 and rounds on assignment.
    return { data: new Uint8Array(out!.buffer), width: width * scale, height: height * scale };
  }

  /** Releases the loaded models (worker shutdown, tests). */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of await Promise.allSettled(sessions)) if (session.status === 'fulfilled') await session.value.release();
  }

  private session(model: AiModelId): Promise<InferenceSession> {
    let session = this.sessions.get(model);
    if (!session) {
      session = this.load(model);
      this.sessions.set(model, session);
      // A failed load is not cached: the next job tries again (after a build, say).
      session.catch(() => this.sessions.delete(model));
    }
    return session;
  }

  private async load(model: AiModelId): Promise<InferenceSession> {
    const path = join(this.modelsDir, `${model}.onnx`);
    if (!existsSync(path)) {
      throw new Error(`The ONNX model ${model} is missing (${path}): run \`npm run build\`, which converts it from its npm package`);
    }
    return InferenceSession.create(path, { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
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

/** The tile's window of RGB bytes as planar float32 (the model's NCHW input, values 0-255). */
function windowToNchw(image: RgbImage, tile: Tile): Float32Array {
  const plane = tile.width * tile.height;
  const input = new Float32Array(3 * plane);
  for (let y = 0; y < tile.height; y++) {
    let source = ((tile.y + y) * image.width + tile.x) * 3;
    let target = y * tile.width;
    for (let x = 0; x < tile.width; x++, source += 3, target++) {
      input[target] = image.data[source]!;
      input[plane + target] = image.data[source + 1]!;
      input[2 * plane + target] = image.data[source + 2]!;
    }
  }
  return input;
}

/** Copies the kept part of a tile's planar output into the interleaved RGB result. */
function keepTile(output: Float32Array, tile: Tile, scale: number, out: Uint8ClampedArray, outWidth: number) {
  const tileWidth = tile.width * scale;
  const plane = tileWidth * tile.height * scale;
  const rows = tile.keepHeight * scale;
  const columns = tile.keepWidth * scale;
  for (let y = 0; y < rows; y++) {
    const sourceRow = (tile.keepY * scale + y) * tileWidth + tile.keepX * scale;
    let target = (((tile.y + tile.keepY) * scale + y) * outWidth + (tile.x + tile.keepX) * scale) * 3;
    for (let x = 0; x < columns; x++, target += 3) {
      const source = sourceRow + x;
      out[target] = output[source]!;
      out[target + 1] = output[plane + source]!;
      out[target + 2] = output[2 * plane + source]!;
    }
  }
}
