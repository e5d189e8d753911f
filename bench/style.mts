/**
 * npm run bench:style — the browser's style recalculation and layout on the first load of `/`,
 * `/levels` and `/levels/27` (BENCH_PAGES for others), from Chromium's own trace: the main-thread
 * time the stylesheet costs before a phone can paint, which Lighthouse multiplies by four.
 *
 * Each page loads with its scripts held back (the stylesheet's cost alone), BENCH_RUNS times (9)
 * with the built stylesheet and, interleaved, with none: the baseline, what the same HTML costs the
 * machine anyway. BENCH_STYLESHEET=<file> adds a third variant, that file served as the stylesheet:
 * a stylesheet change measured against the build in one run (issue 35's icons, one image against a
 * data URL per icon).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { freePort, median, ROOT, waitFor, WEB_NODE_FLAGS } from './support.mts';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const PAGES = (process.env.BENCH_PAGES ?? '/,/levels,/levels/27').split(',');
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The stylesheets compared: the build's, none, and the one BENCH_STYLESHEET names. */
function variants(): { name: string; css: string }[] {
  const built = readdirSync(join(ROOT, 'dist/client/assets')).find((file) => /^entry-client-.+\.css$/.test(file));
  if (!built) throw new Error('No stylesheet in dist/client/assets: run npm run build');
  const list = [
    { name: 'built stylesheet', css: readFileSync(join(ROOT, 'dist/client/assets', built), 'utf8') },
    { name: 'no stylesheet (baseline)', css: '' },
  ];
  const other = process.env.BENCH_STYLESHEET;
  if (other) list.push({ name: basename(other), css: readFileSync(other, 'utf8') });
  return list;
}

/** Milliseconds of style recalculation and of layout on one load, summed from Chromium's trace. */
async function load(browser: Browser, url: string, css: string): Promise<{ style: number; layout: number }> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    await page.route(/\.css$/, (route) => route.fulfill({ status: 200, contentType: 'text/css', body: css }));
    await page.route(/\.js$/, (route) => route.abort());
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await page.goto(url, { waitUntil: 'load' });
    // The frame after load: the last style and layout of the first paint are in the trace.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: { name: string; ph: string; dur?: number }[] }).traceEvents;
    const total = (name: string) => events.filter((e) => e.ph === 'X' && e.name === name).reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
    return { style: total('UpdateLayoutTree'), layout: total('Layout') };
  } finally {
    await context.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-style-'));
  const port = await freePort();
  const app: ChildProcess = spawn(process.execPath, [...WEB_NODE_FLAGS, 'dist/server/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) },
    stdio: 'ignore',
  });
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    const sheets = variants();
    for (const path of PAGES) {
      const url = `http://127.0.0.1:${port}${path}`;
      const runs = sheets.map(() => [] as { style: number; layout: number }[]);
      for (let i = 0; i < RUNS; i++) for (const [n, sheet] of sheets.entries()) runs[n]!.push(await load(browser, url, sheet.css));
      console.log(`First load of ${path}, scripts held back, median of ${RUNS} interleaved runs each:`);
      const baseline = median(runs[1]!.map((r) => r.style));
      for (const [n, sheet] of sheets.entries()) {
        const style = median(runs[n]!.map((r) => r.style));
        const layout = median(runs[n]!.map((r) => r.layout));
        console.log(`  ${sheet.name.padEnd(26)} style ${style.toFixed(1).padStart(6)} ms, layout ${layout.toFixed(1).padStart(6)} ms; style ${(style / baseline).toFixed(2)}x the baseline`);
      }
    }
  } finally {
    await browser.close();
    app.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
