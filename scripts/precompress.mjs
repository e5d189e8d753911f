// Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside each compressible file of the
// client build, so the server sends them as they are (@fastify/static `preCompressed`) instead of
// compressing assets again on every request. Run by `npm run build:web` after `vite build`.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const client = resolve(fileURLToPath(import.meta.url), '../../dist/client');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|wasm)$/;
/** Below this a compressed copy saves less than its headers cost (@fastify/compress's threshold too). */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // The build manifest is read by the server from disk, never served.
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* walk(path);
    } else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

let written = 0;
let saved = 0;
for await (const path of walk(client)) {
  if ((await stat(path)).size < MIN_BYTES) continue;
  const source = await readFile(path);
  const [br, gzipped] = await Promise.all([
    brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
    gz(source, { level: 9 }),
  ]);
  // A copy no smaller than the file would only cost a file read.
  for (const [suffix, bytes] of [['.br', br], ['.gz', gzipped]]) {
    if (bytes.length >= source.length) continue;
    await writeFile(path + suffix, bytes);
    written++;
    saved += source.length - bytes.length;
  }
}
console.log(`Precompressed: ${written} files written (.br, .gz), ${(saved / 1024).toFixed(0)} KB less to send`);
