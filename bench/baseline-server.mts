/**
 * The baseline of bench:levels: a plain Fastify server answering stored bytes from memory (each path
 * in identity, br and gzip, picked by Accept-Encoding the simplest way) and the client build through
 * @fastify/static with its precompressed files. Nothing else: no hooks, no security headers.
 * BENCH_VARIANTS names a JSON file { [path]: { type, identity, br, gzip } } (base64 bodies).
 */
import { readFileSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

interface Variants {
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

const stored = JSON.parse(readFileSync(process.env.BENCH_VARIANTS!, 'utf8')) as Record<string, Record<keyof Variants, string>>;
const app = Fastify();
await app.register(fastifyStatic, { root: process.env.BENCH_CLIENT!, prefix: '/', wildcard: false, index: false, preCompressed: true });
for (const [path, encoded] of Object.entries(stored)) {
  const variants: Variants = {
    type: encoded.type,
    identity: Buffer.from(encoded.identity, 'base64'),
    br: Buffer.from(encoded.br, 'base64'),
    gzip: Buffer.from(encoded.gzip, 'base64'),
  };
  app.get(path, (request, reply) => {
    const accepted = request.headers['accept-encoding'] ?? '';
    const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : 'identity';
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.header('vary', 'accept-encoding').type(variants.type).send(variants[encoding]);
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
