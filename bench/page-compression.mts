/**
 * The compression part of bench:pages: brotli 1 to 6 and gzip on a page's HTML, in this process
 * (core 1), the ways the site can compress an uncached page: in one call (a page React finished in
 * its shell: today every page), with the encoder's memory warm (calls back to back) and cold (16 MB
 * written between calls, as a render does in the web process); and as a stream flushed every 2 KB
 * (React's writes before they were coalesced: what flushing often costs). Bytes, CPU per page, and
 * what each step up buys: bytes saved per extra CPU-millisecond (cold) against the row before.
 */
import { brotliCompressSync, constants as zlib, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';

interface Setting {
  name: string;
  /** One synchronous call, as src/ssr/encoded-response.ts compresses a finished page. */
  once: (body: Buffer) => Buffer;
  /** A stream flushed after every write, as @fastify/compress compresses a streamed page. */
  stream: () => BrotliCompress | Gzip;
}

// Brotli's window at 64 KB, as the site sets it: smaller tables, less CPU, the same bytes for a page this size.
const brotli = (quality: number): Setting => ({
  name: `brotli ${quality}`,
  once: (body) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_LGWIN]: 16 } }),
  stream: () => createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_LGWIN]: 18 }, flush: zlib.BROTLI_OPERATION_FLUSH }),
});
const gzip = (level: number): Setting => ({
  name: `gzip ${level}`,
  once: (body) => gzipSync(body, { level }),
  stream: () => createGzip({ level, flush: zlib.Z_SYNC_FLUSH }),
});
const SETTINGS = [...[1, 2, 3, 4, 5, 6].map(brotli), ...[1, 4, 6, 9].map(gzip)];

/** CPU in ms: this thread's (a synchronous call), or the process's (a stream runs in the thread pool). */
const threadCpu = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};
const processCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function streamed(setting: Setting, pieces: Buffer[]): Promise<number> {
  const stream = setting.stream();
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const piece of pieces) stream.write(piece);
  stream.end();
  await ended;
  return bytes;
}

export interface CompressionRow {
  name: string;
  once: { bytes: number; warmMs: number; coldMs: number };
  flushed: { bytes: number; ms: number };
}

/** Each setting `iterations` times per way, 3 interleaved rounds, median CPU per page. */
export async function measureCompression(html: Buffer, iterations: number): Promise<CompressionRow[]> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < html.length; at += 2048) pieces.push(html.subarray(at, at + 2048));
  const evict = Buffer.alloc(16 * 1024 * 1024);
  const runs = new Map(SETTINGS.map((s) => [s.name, { warm: [] as number[], cold: [] as number[], flushed: [] as number[] }]));
  for (let round = 0; round < 3; round++) {
    for (const setting of SETTINGS) {
      const run = runs.get(setting.name)!;
      let started = threadCpu();
      for (let i = 0; i < iterations; i++) setting.once(html);
      run.warm.push((threadCpu() - started) / iterations);
      // Cold: the loop with the eviction, less the eviction alone (the clock is too coarse to time one call).
      started = threadCpu();
      for (let i = 0; i < iterations; i++) {
        evict.fill(i & 0xff);
        setting.once(html);
      }
      const withEviction = threadCpu() - started;
      started = threadCpu();
      for (let i = 0; i < iterations; i++) evict.fill(i & 0xff);
      // A difference of two timings: with few iterations (a quick run) noise can make it negative; 0 then, what the clock can tell.
      run.cold.push(Math.max(0, (withEviction - (threadCpu() - started)) / iterations));
      started = processCpu();
      for (let i = 0; i < iterations; i++) await streamed(setting, pieces);
      run.flushed.push((processCpu() - started) / iterations);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: CompressionRow[] = [];
  for (const setting of SETTINGS) {
    const run = runs.get(setting.name)!;
    rows.push({
      name: setting.name,
      once: { bytes: setting.once(html).length, warmMs: median(run.warm), coldMs: median(run.cold) },
      flushed: { bytes: await streamed(setting, pieces), ms: median(run.flushed) },
    });
  }
  return rows;
}

/** Bytes saved per extra CPU-millisecond (cold) against the previous row of the same codec; '-' for the first, or when it costs no more. */
function marginal(row: CompressionRow['once'], previous: CompressionRow['once'] | undefined): string {
  // Under 0.01 ms more is within the clock's noise: free, as far as this can tell.
  if (!previous || row.coldMs - previous.coldMs < 0.01) return '-';
  return String(Math.round((previous.bytes - row.bytes) / (row.coldMs - previous.coldMs)));
}

export function printCompression(label: string, html: Buffer, rows: CompressionRow[]): void {
  console.log(`\nCompression of ${label} (${html.length} bytes) in this process: one call (CPU warm and cold), and a stream flushed every 2 KB`);
  console.log(`${'setting'.padEnd(10)} ${'one call'.padStart(8)} ${'warm ms'.padStart(7)} ${'cold ms'.padStart(7)} ${'B/ms more'.padStart(9)}  ${'flushed'.padStart(7)} ${'CPU ms'.padStart(6)}`);
  rows.forEach((row, i) => {
    const previous = rows[i - 1]?.name.split(' ')[0] === row.name.split(' ')[0] ? rows[i - 1]!.once : undefined;
    console.log(
      `${row.name.padEnd(10)} ${String(row.once.bytes).padStart(8)} ${row.once.warmMs.toFixed(3).padStart(7)} ${row.once.coldMs.toFixed(3).padStart(7)} ${marginal(row.once, previous).padStart(9)}  ${String(row.flushed.bytes).padStart(7)} ${row.flushed.ms.toFixed(3).padStart(6)}`,
    );
  });
}
