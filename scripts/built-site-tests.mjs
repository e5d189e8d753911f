// Which test files start the built site: a web process or worker from dist/ (through test/support's
// startSite, useSite, startBrowserSite, startApp, startWorker, runUntilExit, or a site's startWorker(),
// which is the built worker on an in-process site too), a built CLI (CONTENT_CLI, DB_CLI, WORKER) or an
// npm script. Prints them and their count, so counts before and after a change compare.
// Usage: node scripts/built-site-tests.mjs [--list]
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const STARTERS = new Set(['startSite', 'useSite', 'startBrowserSite', 'startApp', 'startWorker', 'runUntilExit', 'CONTENT_CLI', 'DB_CLI', 'WORKER']);
const SUPPORT = /import\s*\{([^}]*)\}\s*from\s*'\.\/support\/(?:site|app-process|browser-site)'/g;

const specs = readdirSync(join(root, 'test')).filter((f) => /\.(int|e2e)-spec\.ts$/.test(f)).sort();
const starting = specs.filter((file) => {
  const text = readFileSync(join(root, 'test', file), 'utf8');
  const imported = [...text.matchAll(SUPPORT)].flatMap(([, names]) => names.split(',').map((n) => n.trim()).filter((n) => !n.startsWith('type ')));
  return imported.some((name) => STARTERS.has(name)) || /\.startWorker\(|spawn\(\s*'npm'/.test(text);
});
if (process.argv.includes('--list')) for (const file of starting) console.log(`test/${file}`);
console.log(`${starting.length} of ${specs.length} test files start the built site`);
