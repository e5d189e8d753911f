// Bundles SWC's per-file output into one CommonJS file per long-running process:
// dist/server/main.js (web) from dist/server/src/main.js, dist/server/worker.js from
// dist/server/src/worker.js. Unbundled, Node's module loader (resolving, reading package.json files,
// linking the ESM-only @nestjs/* and @mikro-orm/* packages for require) was most of the web
// process's CPU at start; the tests start it some 75 times. The CLIs (dist/server/src/cli) run a few
// times a suite and stay unbundled: bundling each would cost about as much build CPU (2-4 s) as it saves.
// Run by `npm run build:server` after SWC. Usage: node scripts/bundle-server.mjs
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const server = join(root, 'dist/server');

const ENTRIES = { main: 'src/main.js', worker: 'src/worker.js' };

/**
 * Loaded from node_modules at run time, not bundled: packages with native code or that read their
 * own files by path (sharp, argon2, onnxruntime-node, PGlite's WASM and data, Bull Board's page and
 * view engine, Swagger UI's assets, pino's transport worker), with pino-pretty beside pino; pg with
 * its optional native binding; @fastify/static, which Bull Board's adapter loads too; and what only
 * development loads (vite). An external package must not import one the bundle holds, or a second
 * copy loads: @nestjs/swagger (it imports @nestjs/*) and @bull-board/api (bullmq) are bundled for
 * that (fastify-plugin, a one-file helper of @fastify/static, is the exception).
 */
const EXTERNAL = [
  'sharp',
  'argon2',
  'onnxruntime-node',
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  '@bull-board/fastify',
  'swagger-ui-dist',
  'pino',
  'pino-pretty',
  'pg',
  '@fastify/static',
  'vite',
];

/**
 * What Nest loads only for features we do not use (with try/catch or a message), mostly not
 * installed: left as `require()` or `import()`, they behave as they do unbundled.
 */
const OPTIONAL = [
  '@nestjs/platform-express',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/view',
  'class-validator',
  'class-transformer',
  'pg-native',
];

const isExternal = (id) => [...EXTERNAL, ...OPTIONAL].some((name) => id === name || id.startsWith(`${name}/`));

/**
 * Warnings that are understood, by code and module; any other warning fails the build.
 * - MikroORM calls `import.meta.resolve`, which a CommonJS bundle has not, in two places that catch
 *   the error: discovering extensions we pass explicitly (mikro-orm.options.ts) and checking that the
 *   installed @mikro-orm/* versions match (the bundle carries one build of each).
 * - @bull-board/api finds @bull-board/ui's files with `eval('require.resolve(...)')`: in the bundle
 *   that is the bundle's own `require`, which finds node_modules as before.
 */
const KNOWN = [
  { code: 'EMPTY_IMPORT_META', module: /\/node_modules\/@mikro-orm\/core\/(MikroORM|utils\/fs-utils)\.js$/ },
  { code: 'EVAL', module: /\/node_modules\/@bull-board\/api\/dist\/index\.js$/ },
];

/**
 * The bundle's source map covers our code only, so `--enable-source-maps` stack traces point into
 * src/ as before, and frames inside packages point into the bundle. Node holds a parsed map in
 * memory: mapping the 3,500 package files too cost 125 MB of heap and 0.7 s of CPU at start.
 * Rolldown does not read SWC's maps by itself: this hands them over, and gives each package file
 * an empty map.
 */
const sourceMaps = {
  name: 'source-maps',
  load: {
    filter: { id: /\/(dist\/server|node_modules)\/.*\.[cm]?js$/ },
    handler(id) {
      const code = readFileSync(id, 'utf8');
      if (id.includes('/node_modules/')) return { code, map: { version: 3, sources: [], names: [], mappings: '' } };
      try {
        return { code, map: readFileSync(`${id}.map`, 'utf8') };
      } catch {
        return { code }; // a plain .js file SWC copied without a map (an inference thread's code)
      }
    },
  },
};

/**
 * Node maps a position to the nearest mapped one before it: a frame in a package would land in
 * whatever source came last. A segment without a source at the start of each run of unmapped lines
 * (`A`: column 0, nothing else) makes those positions unmapped instead.
 */
function markUnmappedLines(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  const lines = map.mappings.split(';');
  map.mappings = lines.map((line, i) => (line === '' && (i === 0 || lines[i - 1] !== '') ? 'A' : line)).join(';');
  writeFileSync(mapFile, JSON.stringify(map));
}

async function bundle(name, entry) {
  const problems = [];
  await build({
    input: join(server, entry),
    platform: 'node',
    external: isExternal,
    plugins: [sourceMaps],
    onLog(level, log) {
      if (KNOWN.some((k) => k.code === log.code && k.module.test(log.id ?? ''))) return;
      if (level === 'warn') problems.push(`${log.code}: ${log.message}`);
    },
    output: {
      file: join(server, `${name}.js`),
      format: 'cjs',
      codeSplitting: false,
      // Nest and MikroORM read class names (tokens, entities, log contexts): bundling must not rename them.
      keepNames: true,
      sourcemap: true,
    },
  });
  if (problems.length) throw new Error(`Bundling ${entry} warned:\n${problems.join('\n')}`);
  markUnmappedLines(join(server, `${name}.js.map`));
}

/** Worker-thread files are loaded by path, beside the file that starts them: in the bundle, beside the bundle. */
function copyThreadFiles(dir) {
  const copied = new Set();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.thread.js')) continue;
    if (copied.has(entry.name)) throw new Error(`Two thread files are named ${entry.name}: beside the bundle, one would replace the other`);
    copied.add(entry.name);
    copyFileSync(join(entry.parentPath, entry.name), join(server, entry.name));
  }
}

for (const [name, entry] of Object.entries(ENTRIES)) await bundle(name, entry);
copyThreadFiles(join(server, 'src'));
