/**
 * npm run bench:catalogue — the site with a large catalogue, against the sample catalogue
 * (content/, 32 guides and 3 posts) measured in the same run.
 *
 * Generates CATALOGUE_GUIDES (default 5,000) level guides and CATALOGUE_POSTS (500) blog posts
 * (bench/catalogue-content.mts, seeded by CATALOGUE_SEED) and, to tell a page that grows with the
 * catalogue from one that is merely different, the same generator at half that size. Each
 * catalogue is imported by the built web process's start-up import (CONTENT_DIR) into a PostgreSQL
 * database of its own (BENCH_DATABASE_URL's server, default the local test server; dropped
 * afterwards), and then:
 *
 * - the import: the time the importer logs for the guides and for the pages and posts, and the web
 *   process's resident memory once it answers;
 * - search: GET /api/v1/search for 20 typical and 20 misspelt queries, one at a time after a
 *   warm-up pass, CATALOGUE_ROUNDS (default 10) times each; p50 and p95. The API allows 60 searches
 *   a minute per client: the bench stands for a reverse proxy in front of many players
 *   (TRUST_PROXY=loopback), each search from an address of its own;
 * - the HTML (or XML) size of the list pages, the home page, /explore, a guide, /search, the feeds
 *   and the sitemap (with its parts when it is an index).
 *
 * With CATALOGUE_EMBEDDED=true (the default) the large and the sample catalogue are also imported
 * into and searched on the embedded database (PGlite, a DATA_DIR of their own).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCatalogue } from './catalogue-content.mts';
import { benchDatabase, freePort, hasTaskset, median, pinLoadGenerator, ROOT, serve, WEB_NODE_FLAGS } from './support.mts';

const GUIDES = Number(process.env.CATALOGUE_GUIDES ?? 5000);
const POSTS = Number(process.env.CATALOGUE_POSTS ?? 500);
const SEED = Number(process.env.CATALOGUE_SEED ?? 25);
const ROUNDS = Number(process.env.CATALOGUE_ROUNDS ?? 10);
const EMBEDDED = process.env.CATALOGUE_EMBEDDED !== 'false';
const SAMPLE_GUIDES = 32;
const SAMPLE_POSTS = 3;
const LEVELS_PAGE_SIZE = 24;
pinLoadGenerator();

/** What players type: items, fixtures, rooms, a level number, a post's words. */
const TYPICAL = ['brass key', 'telescope', 'oil can', 'clock tower', 'wall safe', 'candle', 'rug', '27', 'stained glass', 'crowbar', 'fuse box', 'chess board', 'music box', 'globe', 'lighthouse', 'pharaoh', 'mirror', 'hints first', 'magnifying glass', 'locked observatory'];
/** The same kind of words, misspelt as players do, and the word meant. */
const MEANT: Record<string, string> = {
  telscope: 'telescope',
  chandeleir: 'chandelier',
  pharoah: 'pharaoh',
  kaleidascope: 'kaleidoscope',
  gramaphone: 'gramophone',
  metronone: 'metronome',
  periscop: 'periscope',
  sarcophogus: 'sarcophagus',
  heiroglyphs: 'hieroglyphs',
  tapestery: 'tapestry',
  cauldren: 'cauldron',
  fonograph: 'phonograph',
  harpsicord: 'harpsichord',
  candelabera: 'candelabra',
  barometre: 'barometer',
  sundail: 'sundial',
  hourglas: 'hourglass',
  manequin: 'mannequin',
  labrynth: 'labyrinth',
  silouette: 'silhouette',
};
const MISSPELT = Object.keys(MEANT);

interface Catalogue {
  name: string;
  dir: string;
  guides: number;
  posts: number;
}

interface Measured {
  importSeconds: { levels: number; site: number };
  /** The web process's resident memory once it answers, after the import (MB). */
  rssMb: number;
  /** `meant`: misspelt queries whose first result holds the word meant; `missed`: the others. */
  search: { typical: number[]; misspelt: number[]; found: number; meant: number; missed: string[] };
  /** Bytes of each page, and the time of its first (uncached) request in ms. */
  sizes: Map<string, { bytes: number; ms: number }>;
  sitemap: { urls: number; parts: number };
}

/** p-th percentile (nearest rank) of a list of numbers. */
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

/** The built web process on `database` (a PostgreSQL URL, or the embedded one under a DATA_DIR), importing `content` at start. */
async function startSite(catalogue: Catalogue, database: { url?: string; dataDir: string }) {
  const port = await freePort();
  const app = serve(
    [...WEB_NODE_FLAGS, 'dist/server/main.js'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      CONTENT_DIR: catalogue.dir,
      DATA_DIR: database.dataDir,
      ...(database.url ? { DATABASE_URL: database.url, MIGRATE_ON_START: 'true' } : {}),
      // Level numbers the site accepts: the catalogue's, and some beyond (no guide yet).
      LEVEL_SEARCH_MAX: String(Math.max(635, catalogue.guides + 1000)),
      LEVELS_SEARCHABLE_MAX: String(catalogue.guides),
      LEVELS_CLAIMED: String(Math.max(1000, catalogue.guides)),
      TRUST_PROXY: 'loopback',
    },
    { output: true },
  );
  let log = '';
  app.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  app.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  // The start-up import runs before the process listens: a large catalogue takes a while.
  for (let waited = 0; ; waited += 200) {
    if (app.exitCode !== null) throw new Error(`the site exited with ${app.exitCode}:\n${log.slice(-4000)}`);
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
    if (waited > 600_000) throw new Error(`the site did not come up in 10 minutes:\n${log.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (pattern: RegExp) => {
    const found = pattern.exec(log)?.[1];
    if (!found) throw new Error(`no import logged for ${pattern}:\n${log.slice(-4000)}`);
    return Number(found);
  };
  const importSeconds = { levels: seconds(/Imported level guides: [^"]* in ([\d.]+) s/), site: seconds(/Imported pages \([^"]* in ([\d.]+) s/) };
  const stop = async () => {
    if (app.exitCode !== null) return;
    const exited = once(app, 'exit');
    app.kill('SIGTERM');
    await exited;
  };
  // taskset execs node: the child's pid is the web process's.
  const rssMb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${app.pid}/status`, 'utf8'))?.[1]) / 1024;
  return { base, app, importSeconds, rssMb, stop };
}

let address = 0;
/** Each search from an address of its own, as players behind a proxy. */
const nextAddress = () => {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

type Segments = { text: string }[];

async function searchOnce(base: string, query: string): Promise<{ ms: number; hits: number; first: string }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/search?q=${encodeURIComponent(query)}`, { headers: { 'x-forwarded-for': nextAddress() } });
  const body = (await response.json()) as { groups: { total: number; hits: { title: Segments; snippet: Segments }[] }[] };
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`search "${query}": ${response.status} ${JSON.stringify(body)}`);
  const top = body.groups[0]?.hits[0];
  const first = top ? [...top.title, ...top.snippet].map((segment) => segment.text).join('').toLowerCase() : '';
  return { ms, hits: body.groups.reduce((n, g) => n + g.total, 0), first };
}

async function measureSearch(base: string) {
  const all = [...TYPICAL, ...MISSPELT];
  let found = 0;
  let meant = 0;
  const missed: string[] = [];
  // Warm-up: the first pass also says what each query finds.
  for (const query of all) {
    const result = await searchOnce(base, query);
    if (result.hits > 0) found++;
    if (MEANT[query] !== undefined) {
      if (result.first.includes(MEANT[query])) meant++;
      else missed.push(query);
    }
  }
  const typical: number[] = [];
  const misspelt: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of TYPICAL) typical.push((await searchOnce(base, query)).ms);
    for (const query of MISSPELT) misspelt.push((await searchOnce(base, query)).ms);
  }
  return { typical, misspelt, found, meant, missed };
}

/** The pages measured, by label: path. */
function pagesOf(catalogue: Catalogue): [string, string][] {
  const lastPage = Math.max(1, Math.ceil(catalogue.guides / LEVELS_PAGE_SIZE));
  return [
    ['home /', '/'],
    ['/levels', '/levels'],
    ['/levels?page=2', '/levels?page=2'],
    ['/levels?page=<last>', `/levels?page=${lastPage}`],
    ['/levels?difficulty=hard', '/levels?difficulty=hard'],
    ['/levels/hardest', '/levels/hardest'],
    ['guide /levels/27', '/levels/27'],
    ['/explore', '/explore'],
    ['/blog', '/blog'],
    ['/search?q=brass+key', '/search?q=brass+key'],
    ['/levels/feed.xml', '/levels/feed.xml'],
    ['/blog/feed.xml', '/blog/feed.xml'],
  ];
}

/** Bytes of a page as sent uncompressed, and how long it took; it must answer 200. */
async function size(base: string, path: string): Promise<{ bytes: number; ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return { bytes: Buffer.byteLength(text), ms, text };
}

async function measureSizes(base: string, catalogue: Catalogue) {
  const sizes = new Map<string, { bytes: number; ms: number }>();
  for (const [label, path] of pagesOf(catalogue)) sizes.set(label, await size(base, path));
  // The sitemap: one document, or an index of parts (all of them counted).
  const sitemap = await size(base, '/sitemap.xml');
  sizes.set('/sitemap.xml', sitemap);
  const parts = [...sitemap.text.matchAll(/<sitemap><loc>[^<]*?(\/sitemap-\d+\.xml)<\/loc>/g)].map((m) => m[1]!);
  let urls = (sitemap.text.match(/<url>/g) ?? []).length;
  const all = { bytes: 0, ms: 0 };
  for (const part of parts) {
    const { bytes, ms, text } = await size(base, part);
    all.bytes += bytes;
    all.ms += ms;
    urls += (text.match(/<url>/g) ?? []).length;
  }
  if (parts.length) sizes.set('sitemap parts (all)', all);
  return { sizes, sitemap: { urls, parts: parts.length } };
}

async function measure(catalogue: Catalogue, database: { url?: string; dataDir: string }, what: { search: boolean; sizes: boolean }): Promise<Measured> {
  const site = await startSite(catalogue, database);
  try {
    const search = what.search ? await measureSearch(site.base) : { typical: [], misspelt: [], found: 0, meant: 0, missed: [] };
    const { sizes, sitemap } = what.sizes ? await measureSizes(site.base, catalogue) : { sizes: new Map<string, { bytes: number; ms: number }>(), sitemap: { urls: 0, parts: 0 } };
    return { importSeconds: site.importSeconds, rssMb: site.rssMb, search, sizes, sitemap };
  } finally {
    await site.stop();
  }
}

async function onPostgres(catalogue: Catalogue, what: { search: boolean; sizes: boolean }) {
  const database = await benchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-catalogue-data-'));
  try {
    return await measure(catalogue, { url: database.url, dataDir }, what);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

async function onEmbedded(catalogue: Catalogue) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-catalogue-pglite-'));
  try {
    return await measure(catalogue, { dataDir }, { search: true, sizes: false });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const row = (cells: (string | number)[], widths: number[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');

function printImport(label: string, large: Measured, sample: Measured, catalogue: Catalogue) {
  const perGuide = large.importSeconds.levels / catalogue.guides;
  const perGuideSample = sample.importSeconds.levels / SAMPLE_GUIDES;
  const perPost = large.importSeconds.site / Math.max(1, catalogue.posts);
  const perPostSample = sample.importSeconds.site / SAMPLE_POSTS;
  console.log(
    `${label} import: ${catalogue.guides} guides ${large.importSeconds.levels.toFixed(2)} s (${(perGuide * 1000).toFixed(2)} ms a guide; sample ${SAMPLE_GUIDES} guides ${sample.importSeconds.levels.toFixed(2)} s, ${(perGuideSample * 1000).toFixed(2)} ms a guide: ${x(perGuide / perGuideSample)} per guide); ` +
      `${catalogue.posts} posts and 5 pages ${large.importSeconds.site.toFixed(2)} s (sample ${SAMPLE_POSTS} posts ${sample.importSeconds.site.toFixed(2)} s: ${x(perPost / perPostSample)} per post); ` +
      `web process after the import ${large.rssMb.toFixed(0)} MB resident (sample ${sample.rssMb.toFixed(0)} MB: ${x(large.rssMb / sample.rssMb)})`,
  );
}

function printSearch(label: string, large: Measured, sample: Measured) {
  const widths = [34, 10, 10, 10, 10, 8, 8];
  console.log(row([`${label} search (GET /api/v1/search)`, 'p50', 'p95', 'sample p50', 'sample p95', 'p50 x', 'p95 x'], widths));
  for (const kind of ['typical', 'misspelt'] as const) {
    const [l, s] = [large.search[kind], sample.search[kind]];
    console.log(row([`  ${kind} (${l.length} searches)`, ms(median(l)), ms(percentile(l, 95)), ms(median(s)), ms(percentile(s, 95)), x(median(l) / median(s)), x(percentile(l, 95) / percentile(s, 95))], widths));
  }
  console.log(
    `  queries with results: ${large.search.found}/40 (sample ${sample.search.found}/40); misspelt queries whose first result has the word meant: ${large.search.meant}/20 (sample ${sample.search.meant}/20)` +
      (large.search.missed.length ? `; not in the large catalogue: ${large.search.missed.join(', ')}` : ''),
  );
}

async function main() {
  const busy = loadavg()[0]!;
  if (busy > 0.5) console.log(`Note: load average ${busy.toFixed(2)} before the run; the timings are unreliable while other work runs.`);
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'bench-catalogue-'));
  try {
    const sample: Catalogue = { name: 'sample', dir: join(ROOT, 'content'), guides: SAMPLE_GUIDES, posts: SAMPLE_POSTS };
    const large: Catalogue = { name: 'large', dir: join(root, 'large'), guides: GUIDES, posts: POSTS };
    // Half as many guides, with as many on the list's last page as the large one has.
    const halfGuides = Math.floor(GUIDES / 2 / LEVELS_PAGE_SIZE) * LEVELS_PAGE_SIZE + (GUIDES % LEVELS_PAGE_SIZE);
    const half: Catalogue = { name: 'half', dir: join(root, 'half'), guides: halfGuides, posts: Math.ceil(POSTS / 2) };
    for (const catalogue of [large, half]) writeCatalogue(catalogue.dir, sample.dir, { guides: catalogue.guides, posts: catalogue.posts, seed: SEED });
    console.log(
      `Catalogues: sample (content/, ${SAMPLE_GUIDES} guides, ${SAMPLE_POSTS} posts), large (${GUIDES} guides, ${POSTS} posts, seed ${SEED}) and half (${half.guides}, ${half.posts}); ` +
        `start-up import by the built web process${hasTaskset ? ' on core 0' : ''}; search ${ROUNDS} rounds of 40 queries, one at a time`,
    );

    const pgSample = await onPostgres(sample, { search: true, sizes: true });
    const pgLarge = await onPostgres(large, { search: true, sizes: true });
    const pgHalf = await onPostgres(half, { search: false, sizes: true });

    console.log('');
    printImport('PostgreSQL', pgLarge, pgSample, large);
    console.log(`  half catalogue: ${half.guides} guides ${pgHalf.importSeconds.levels.toFixed(2)} s, ${half.posts} posts ${pgHalf.importSeconds.site.toFixed(2)} s`);
    console.log('');
    printSearch('PostgreSQL', pgLarge, pgSample);
    console.log('');

    // A page grows with the catalogue when the large catalogue's is clearly bigger than the half one's.
    // The time is the first request's, rendered (not from the page cache): one sample each.
    const widths = [26, 11, 11, 11, 9, 6, 11, 11];
    console.log(row(['page (bytes, uncompressed)', 'large', 'half', 'sample', 'x sample', 'grows', 'first ms', 'sample ms'], widths));
    for (const [label, l] of pgLarge.sizes) {
      const [h, s] = [pgHalf.sizes.get(label), pgSample.sizes.get(label)];
      const grows = h === undefined ? '-' : l.bytes > h.bytes * 1.1 ? 'YES' : 'no';
      const bytes = (v?: { bytes: number }) => v?.bytes.toLocaleString('en') ?? '-';
      console.log(row([label, bytes(l), bytes(h), bytes(s), s ? x(l.bytes / s.bytes) : '-', grows, l.ms.toFixed(1), s ? s.ms.toFixed(1) : '-'], widths));
    }
    if (half.guides < 1000 || half.posts < 100) console.log('Note: under 2,000 guides and 200 posts the lists are not full, so "grows" says little.');
    const urls = (m: Measured) => `${m.sitemap.urls.toLocaleString('en')} URLs${m.sitemap.parts ? ` in ${m.sitemap.parts} parts` : ''}`;
    console.log(`sitemap: large ${urls(pgLarge)}, half ${urls(pgHalf)}, sample ${urls(pgSample)}`);

    if (EMBEDDED) {
      const emSample = await onEmbedded(sample);
      const emLarge = await onEmbedded(large);
      console.log('');
      printImport('Embedded (PGlite)', emLarge, emSample, large);
      console.log('');
      printSearch('Embedded (PGlite)', emLarge, emSample);
      console.log(
        `  embedded against PostgreSQL, large catalogue: import ${x(emLarge.importSeconds.levels / pgLarge.importSeconds.levels)}, ` +
          `search p50 typical ${x(median(emLarge.search.typical) / median(pgLarge.search.typical))}, misspelt ${x(median(emLarge.search.misspelt) / median(pgLarge.search.misspelt))}`,
      );
    }
    console.log(`\nBench ran ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Children are stopped in each measurement's finally; a failure exits non-zero.
await main();
