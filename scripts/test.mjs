// `npm test`: runs the tiers in order, stopping at the first that fails, then prints each tier's
// time and the ten slowest test files. `node scripts/test.mjs --report` (npm run test:timing)
// prints the same report from the last runs of each tier without running anything.
// Usage: node scripts/test.mjs [--report] [tier ...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const timings = process.env.TEST_TIMINGS_DIR || join(root, 'var/test-timings');

/** The tiers, in the order `npm test` runs them; each is an npm script of its own. */
export const TIERS = [
  { name: 'lint', script: 'test:lint', what: 'type-check, ESLint, layering rules' },
  { name: 'unit', script: 'test:unit', what: 'unit specs, in parallel, no services' },
  { name: 'build', script: 'build', what: 'the production build the next tiers start' },
  { name: 'int', script: 'test:int', what: 'integration and HTTP tests, in parallel workers' },
  { name: 'e2e', script: 'test:e2e', what: 'browser tests and tests about processes' },
];

const read = (tier) => {
  const file = join(timings, `${tier}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

const format = (seconds) => (seconds >= 60 ? `${Math.floor(seconds / 60)} min ${(seconds % 60).toFixed(0).padStart(2, '0')} s` : `${seconds.toFixed(1)} s`);

/** Each tier's time (the last run of it) and the ten slowest test files among them. */
export function report(names = TIERS.map((t) => t.name)) {
  const records = names.map(read).filter(Boolean);
  const lines = ['', 'Test timing', ''];
  for (const record of records) lines.push(`  ${record.tier.padEnd(6)} ${format(record.seconds).padStart(11)}${record.failed ? '  FAILED' : ''}`);
  const total = records.reduce((sum, r) => sum + r.seconds, 0);
  lines.push(`  ${'total'.padEnd(6)} ${format(total).padStart(11)}`, '', 'Ten slowest test files', '');
  const files = records.flatMap((r) => r.files ?? []).sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  for (const f of files) lines.push(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.tier.padEnd(5)} ${f.file}`);
  if (!records.length) lines.push('  no timings yet: run npm test or one of its tiers first');
  return lines.join('\n');
}

function run(names) {
  mkdirSync(timings, { recursive: true });
  let failed;
  for (const tier of TIERS.filter((t) => names.includes(t.name))) {
    console.log(`\n== ${tier.name}: ${tier.what} (npm run ${tier.script})`);
    const started = Date.now();
    const { status } = spawnSync('npm', ['run', '--silent', tier.script], { cwd: root, stdio: 'inherit' });
    const seconds = (Date.now() - started) / 1000;
    // The jest reporter wrote the tier's files; the tier's time is the whole script's, as run here.
    const record = read(tier.name);
    const fresh = record && Date.parse(record.finishedAt) >= started;
    writeFileSync(join(timings, `${tier.name}.json`), JSON.stringify({ ...(fresh ? record : {}), tier: tier.name, seconds, failed: status !== 0, finishedAt: new Date().toISOString() }, null, 1));
    if (status !== 0) {
      failed = tier.name;
      break;
    }
  }
  console.log(report(names));
  if (failed) {
    console.error(`\nThe ${failed} tier failed.`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !TIERS.some((t) => t.name === n));
  if (unknown.length) {
    console.error(`Unknown tier ${unknown.join(', ')}: the tiers are ${TIERS.map((t) => t.name).join(', ')}`);
    process.exit(2);
  }
  if (args.includes('--report')) console.log(report(names.length ? names : undefined));
  else run(names.length ? names : TIERS.map((t) => t.name));
}
