// Prints the first-load JavaScript of the level page (the entry, its imports and the level page's
// own chunks, gzipped) and the CSS, and fails when the JavaScript goes over the budget: 90 KB, the
// goal of issue 12, met in issue 35 (94.4 before). React is most of it (react-dom 62.8 KB, react 2.9,
// scheduler 1.5), the site's own code about 21. Helmet (react-helmet-async and its helpers, 5 KB)
// loads after the first render, which the server's head tags serve (web/lib/head-tags.tsx).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 90;
const PAGE = 'web/features/levels/level.page.tsx';
// BUNDLE_ROOT=<another checkout, built> measures that build (bench:pages prints both, before and after).
const root = process.env.BUNDLE_ROOT ? resolve(process.env.BUNDLE_ROOT) : resolve(fileURLToPath(import.meta.url), '../..');
const client = join(root, 'dist/client');
const manifest = JSON.parse(readFileSync(join(client, '.vite/manifest.json'), 'utf8'));

function files(key, seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return [];
  seen.add(key);
  return [manifest[key].file, ...(manifest[key].imports ?? []).flatMap((k) => files(k, seen))];
}

const gz = (file) => gzipSync(readFileSync(join(client, file)), { level: 9 }).length / 1024;
const entryFiles = files('web/entry-client.tsx');
const pageFiles = [...new Set([...entryFiles, ...files(PAGE)])];
const entryJs = entryFiles.reduce((sum, file) => sum + gz(file), 0);
const pageJs = pageFiles.reduce((sum, file) => sum + gz(file), 0);
const css = (manifest['web/entry-client.tsx'].css ?? []).reduce((sum, file) => sum + gz(file), 0);
console.log(
  `First-load JavaScript of a level page: ${pageJs.toFixed(1)} KB gzipped (entry ${entryJs.toFixed(1)} KB; budget ${BUDGET_KB} KB); CSS: ${css.toFixed(1)} KB`,
);
if (pageJs > BUDGET_KB) {
  console.error(`Over the JavaScript budget by ${(pageJs - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
