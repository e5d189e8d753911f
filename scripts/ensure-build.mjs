// Builds the app when dist/ is missing or older than any source file, so a second `npm start`
// serves within seconds. Usage: node scripts/ensure-build.mjs (or import { ensureBuild }).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const STAMP = join(root, 'dist/.build-stamp');
const SOURCES = ['src', 'web', 'migrations', 'package-lock.json', 'vite.config.mts', 'scripts/route-objects.mts', '.swcrc', 'tsconfig.json', 'scripts/build-models.mjs', 'scripts/models', 'scripts/precompress.mjs', 'scripts/bundle-server.mjs'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Marks dist/ as built from the current sources (the last step of `npm run build`). */
export function stampBuild() {
  writeFileSync(STAMP, new Date().toISOString());
}

export function ensureBuild() {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const changed = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  if (built > changed) return false;
  console.log(built ? 'Sources changed since the last build: rebuilding…' : 'No build yet: building…');
  // Never with the caller's NODE_ENV (jest sets `test`): Vite would then bundle React's development build.
  const { NODE_ENV: _callers, ...env } = process.env;
  execSync('npm run build', { cwd: root, stdio: 'inherit', env });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--stamp')) stampBuild();
  else ensureBuild();
}
