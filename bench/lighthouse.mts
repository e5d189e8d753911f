/**
 * npm run bench:lighthouse — Lighthouse mobile performance of `/`, `/levels` and `/levels/27` (issue
 * 35's pages; BENCH_PAGES=/levels/27 for one) in Debian's Chromium, median of 3 runs each, next to
 * the same audit of the page's HTML served from memory with the same assets (the baseline: what the
 * machine and the throttling model allow for a page of this size).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { baselineServer, ROOT, waitFor, WEB_NODE_FLAGS } from './support.mts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGES = (process.env.BENCH_PAGES ?? '/,/levels,/levels/27').split(',');
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function audit(url: string, port: number) {
  const result = await lighthouse(url, { port, output: 'json', onlyCategories: ['performance'], logLevel: 'error' });
  const lhr = result!.lhr;
  // A run Lighthouse could not finish scores 0: say why rather than let it pass as a score.
  if (lhr.runtimeError) console.log(`  ${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance!.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    // Lighthouse's own measure of the machine (higher is faster); the same page scores lower on a slower one.
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

const medianRun = <T,>(runs: T[], key: (run: T) => number) => [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)]!;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lh-'));
  const app: ChildProcess = spawn(process.execPath, [...WEB_NODE_FLAGS, 'dist/server/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '3301', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  let baseline: ChildProcess | undefined;
  try {
    await waitFor('http://127.0.0.1:3301/healthz');
    const report = (label: string, runs: Awaited<ReturnType<typeof audit>>[]) => {
      const m = medianRun(runs, (r) => r.score);
      console.log(
        `${label.padEnd(9)} scores ${runs.map((r) => r.score).join(', ')}; median ${m.score}: FCP ${(m.fcp / 1000).toFixed(2)} s, LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${m.tbt.toFixed(0)} ms, CLS ${m.cls.toFixed(3)}`,
      );
      return m.score;
    };
    for (const page of PAGES) {
      // The page as served (its inline scripts carry no nonce: the CSP allows them by hash).
      const html = await (await fetch(`http://127.0.0.1:3301${page}`)).text();
      baseline = spawn(process.execPath, ['-e', baselineServer(page, 3302, true)], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', BENCH_HTML: Buffer.from(html).toString('base64'), BENCH_CLIENT: join(ROOT, 'dist/client'), NODE_PATH: join(ROOT, 'node_modules') },
        stdio: 'ignore',
      });
      await waitFor(`http://127.0.0.1:3302${page}`);
      const site = [];
      const base = [];
      for (let i = 0; i < RUNS; i++) {
        base.push(await audit(`http://127.0.0.1:3302${page}`, chrome.port));
        site.push(await audit(`http://127.0.0.1:3301${page}`, chrome.port));
      }
      console.log(`Lighthouse mobile performance of ${page}, ${RUNS} interleaved runs each`);
      const b = report('baseline', base);
      const s = report('site', site);
      console.log(`ratio site / baseline: ${(s / b).toFixed(2)}x (target: site median 100)`);
      console.log(`machine: Lighthouse benchmark index ${medianRun([...base, ...site], (r) => r.benchmarkIndex).benchmarkIndex.toFixed(0)} (median of these runs; scores compare only between runs of similar index)`);
      baseline.kill('SIGTERM');
      await once(baseline, 'exit');
      baseline = undefined;
    }
  } finally {
    await chrome.kill();
    baseline?.kill('SIGTERM');
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
