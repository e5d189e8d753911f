/**
 * The baseline of bench:pages: a plain Fastify server answering each page's HTML from memory,
 * compressed per request by @fastify/compress with the settings the site used for uncached pages
 * before issue 35 (brotli 1, gzip 4, one synchronous call). No hooks, no security headers, no
 * render, no database: what putting those bytes on the wire costs at all.
 * BENCH_PAGES names a JSON file { [path]: base64 HTML }.
 */
import { readFileSync } from 'node:fs';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify from 'fastify';

const pages = JSON.parse(readFileSync(process.env.BENCH_PAGES!, 'utf8')) as Record<string, string>;
const app = Fastify();
await app.register(compress, {
  threshold: 1024,
  syncThreshold: 256 * 1024,
  encodings: ['br', 'gzip'],
  zlibOptions: { level: 4 },
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_LGWIN]: 18 } },
});
for (const [path, html] of Object.entries(pages)) {
  const body = Buffer.from(html, 'base64');
  app.get(path, (_request, reply) => reply.type('text/html; charset=utf-8').send(body));
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
