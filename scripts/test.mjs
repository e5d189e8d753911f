// `npm test`: runs the tiers, stopping after the first stage that fails, then prints each tier's
// time and the ten slowest test files. `node scripts/test.mjs --report` (npm run test:timing)
// prints the same report from the last runs of each tier without running anything.
// Usage: node scripts/test.mjs [--report | --list] [tier ...]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const timings = process.env.TEST_TIMINGS_DIR || join(root, 'var/test-timings');

/**
 * The tiers, in the order `npm test` runs them; each is an npm script of its own. Tiers of one
 * stage run side by side (lint, unit specs and the build need no services and share nothing:
 * together they keep both cores busy); the next stage starts when the whole stage has passed.
 */
export const TIERS = [
  { name: 'lint', script: 'test:lint', stage: 1, what: 'type-check, ESLint, layering rules, unused code (knip)' },
  { name: 'unit', script: 'test:unit', stage: 1, what: 'unit specs, in parallel, no services' },
  { name: 'build', script: 'build', stage: 1, what: 'the production build the next tiers start' },
  { name: 'int', script: 'test:int', stage: 2, what: 'integration and HTTP tests, in parallel workers' },
  { name: 'e2e', script: 'test:e2e', stage: 3, what: 'browser tests and tests about processes' },
];

const read = (tier) => {
  const file = join(timings, `${tier}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

const format = (seconds) => (seconds >= 60 ? `${Math.floor(seconds / 60)} min ${(seconds % 60).toFixed(0).padStart(2, '0')} s` : `${seconds.toFixed(1)} s`);

/** Each tier's time and the ten slowest test files among them: this run's records, or the last run of each tier. */
export function report(records = TIERS.map((t) => read(t.name)).filter(Boolean), wallSeconds) {
  const lines = ['', 'Test timing', ''];
  for (const record of records) lines.push(`  ${record.tier.padEnd(6)} ${format(record.seconds).padStart(11)}${record.failed ? '  FAILED' : ''}`);
  const sum = records.reduce((total, r) => total + r.seconds, 0);
  lines.push(`  ${'total'.padEnd(6)} ${format(wallSeconds ?? sum).padStart(11)}  ${wallSeconds === undefined ? '(the sum of the tiers)' : '(as run: lint, unit and build side by side)'}`);
  lines.push('', 'Ten slowest test files', '');
  const files = records.flatMap((r) => r.files ?? []).sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  for (const f of files) lines.push(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.tier.padEnd(5)} ${f.file}`);
  if (!records.length) lines.push('  no timings yet: run npm test or one of its tiers first');
  return lines.join('\n');
}

/** Runs one tier's script; its output is passed through, or kept and returned when `quiet` (tiers side by side). */
function runTier(tier, quiet) {
  const started = Date.now();
  const child = spawn('npm', ['run', '--silent', tier.script], { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((done) =>
    child.on('close', (status) => {
      const seconds = (Date.now() - started) / 1000;
      // The jest reporter wrote the tier's files; the tier's time is the whole script's, as run here.
      const record = read(tier.name);
      const fresh = record && Date.parse(record.finishedAt) >= started;
      const result = { ...(fresh ? record : {}), tier: tier.name, seconds, failed: status !== 0, finishedAt: new Date().toISOString() };
      writeFileSync(join(timings, `${tier.name}.json`), JSON.stringify(result, null, 1));
      done({ result, output });
    }),
  );
}

async function run(names) {
  mkdirSync(timings, { recursive: true });
  const started = Date.now();
  const records = [];
  const chosen = TIERS.filter((t) => names.includes(t.name));
  for (const stage of [...new Set(chosen.map((t) => t.stage))]) {
    const tiers = chosen.filter((t) => t.stage === stage);
    const quiet = tiers.length > 1;
    if (quiet) console.log(`\n== ${tiers.map((t) => t.name).join(', ')}, side by side (each tier's output follows when all are done)`);
    const results = await Promise.all(
      tiers.map((tier) => {
        if (!quiet) console.log(`\n== ${tier.name}: ${tier.what} (npm run ${tier.script})`);
        return runTier(tier, quiet);
      }),
    );
    results.forEach(({ result, output }, i) => {
      if (quiet) process.stdout.write(`\n== ${tiers[i].name}: ${tiers[i].what} (npm run ${tiers[i].script})${result.failed ? ': FAILED' : ''}\n${output}`);
      records.push(result);
    });
    if (results.some(({ result }) => result.failed)) break;
  }
  console.log(report(records, (Date.now() - started) / 1000));
  const failed = records.filter((r) => r.failed).map((r) => r.tier);
  if (failed.length) {
    console.error(`\nFailed: ${failed.join(', ')}.`);
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
  if (args.includes('--list')) console.log(JSON.stringify(TIERS));
  else if (args.includes('--report')) console.log(report(names.length ? names.map(read).filter(Boolean) : undefined));
  else await run(names.length ? names : TIERS.map((t) => t.name));
}
