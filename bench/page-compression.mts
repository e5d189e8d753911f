/**
 * The compression part of bench:pages: brotli 1 to 6 and gzip on a page's HTML, in this process
 * (core 1), as the site can compress an uncached page: in one call (a page React finished in its
 * shell, today every page), and as a stream flushed per 2 KB (React's writes before they were
 * coalesced: the cost of flushing often). Bytes, CPU per page, and what each step up buys: bytes
 * saved per extra CPU-millisecond against the row before.
 */
import { brotliCompressSync, constants as zlib, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';

interface Setting {
  name: string;
  /** One synchronous call, as src/ssr/encoded-response.ts compresses a finished page. */
  once: (body: Buffer) => Buffer;
  /** A stream flushed after every write, as @fastify/compress compresses a streamed page. */
  stream: () => BrotliCompress | Gzip;
}

const brotli = (quality: number): Setting => ({
  name: `brotli ${quality}`,
  once: (body) =>
    brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  stream: () => createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_LGWIN]: 18 }, flush: zlib.BROTLI_OPERATION_FLUSH }),
});
const gzip = (level: number): Setting => ({
  name: `gzip ${level}`,
  once: (body) => gzipSync(body, { level }),
  stream: () => createGzip({ level, flush: zlib.Z_SYNC_FLUSH }),
});
const SETTINGS = [...[1, 2, 3, 4, 5, 6].map(brotli), ...[1, 4, 6, 9].map(gzip)];

/** Process CPU (all threads: the stream variant runs in the thread pool), in ms. */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

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
  once: { bytes: number; ms: number };
  flushed: { bytes: number; ms: number };
}

/** Each setting `iterations` times per round, 3 interleaved rounds, median CPU per page. */
export async function measureCompression(html: Buffer, iterations: number): Promise<CompressionRow[]> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < html.length; at += 2048) pieces.push(html.subarray(at, at + 2048));
  const runs = new Map<string, { once: number[]; flushed: number[] }>(SETTINGS.map((s) => [s.name, { once: [], flushed: [] }]));
  for (let round = 0; round < 3; round++) {
    for (const setting of SETTINGS) {
      let started = cpuNow();
      for (let i = 0; i < iterations; i++) setting.once(html);
      runs.get(setting.name)!.once.push((cpuNow() - started) / iterations);
      started = cpuNow();
      for (let i = 0; i < iterations; i++) await streamed(setting, pieces);
      runs.get(setting.name)!.flushed.push((cpuNow() - started) / iterations);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: CompressionRow[] = [];
  for (const setting of SETTINGS) {
    const run = runs.get(setting.name)!;
    rows.push({
      name: setting.name,
      once: { bytes: setting.once(html).length, ms: median(run.once) },
      flushed: { bytes: await streamed(setting, pieces), ms: median(run.flushed) },
    });
  }
  return rows;
}

/** Bytes saved per extra CPU-millisecond against the previous row of the same codec ('-' for the first, or when it costs nothing more). */
function marginal(row: CompressionRow['once'], previous: CompressionRow['once'] | undefined): string {
  if (!previous || row.ms <= previous.ms) return '-';
  return String(Math.round((previous.bytes - row.bytes) / (row.ms - previous.ms)));
}

export function printCompression(label: string, html: Buffer, rows: CompressionRow[]): void {
  console.log(`\nCompression of ${label} (${html.length} bytes), in this process: one call, and as a stream flushed every 2 KB`);
  console.log(`${'setting'.padEnd(10)} ${'one call'.padStart(9)} ${'CPU ms'.padStart(7)} ${'B/ms more'.padStart(10)}  ${'flushed'.padStart(8)} ${'CPU ms'.padStart(7)}`);
  rows.forEach((row, i) => {
    const previous = rows[i - 1]?.name.split(' ')[0] === row.name.split(' ')[0] ? rows[i - 1]!.once : undefined;
    console.log(
      `${row.name.padEnd(10)} ${String(row.once.bytes).padStart(9)} ${row.once.ms.toFixed(3).padStart(7)} ${marginal(row.once, previous).padStart(10)}  ${String(row.flushed.bytes).padStart(8)} ${row.flushed.ms.toFixed(3).padStart(7)}`,
    );
  });
}
