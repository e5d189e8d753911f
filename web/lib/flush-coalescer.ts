import { Transform, type TransformCallback } from 'node:stream';

/**
 * Server only. Collects React's writes (about 2 KB each) and passes them on as one chunk at each
 * point React flushes: the shell, each Suspense boundary that resolves, the end. React calls
 * `flush()` on its destination after each batch of writes (the hook meant for compressors).
 *
 * Why: the compressor after it flushes on every chunk it receives, so the shell still reaches the
 * browser at once. Fed React's writes directly, a 30 KB page meant about 15 flushes, each costing a
 * small compressed block and its own trip through zlib's thread pool (about 1 ms of CPU per page on
 * this machine kind). Coalesced, the page is compressed in one or two calls.
 */
export class FlushCoalescer extends Transform {
  private pending: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.release();
    callback();
  }

  /** React's signal: what it wrote so far is a complete batch (the shell, a boundary). */
  flush(): void {
    this.release();
  }

  private release(): void {
    if (this.pending.length === 0 || this.destroyed) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.push(chunk);
  }
}
