// `npm test`: runs the tiers, starting nothing more once one has failed, then prints each tier's
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
 * The tiers, in the order `npm test` starts them; each is an npm script of its own. A tier starts
 * once the tiers it comes `after` have passed: lint, the unit specs and the build need nothing and
 * start together; int needs only the build, so it starts when the build is done, beside what is left
 * of lint and the unit specs (neither leaves a core idle waiting for the other); e2e, the dearest,
 * waits for all of them. After a failure nothing more starts.
 */
export const TIERS = [
  { name: 'lint', script: 'test:lint', after: [], what: 'type-check, ESLint, layering rules, unused code (knip)' },
  { name: 'unit', script: 'test:unit', after: [], what: 'unit specs, in parallel, no services' },
  { name: 'build', script: 'build', after: [], what: 'the production build the next tiers start' },
  { name: 'int', script: 'test:int', after: ['build'], what: 'integration and HTTP tests, in parallel workers' },
  { name: 'e2e', script: 'test:e2e', after: ['lint', 'unit', 'build', 'int'], what: 'browser tests and tests about processes' },
];

const read = (tier) => {
  const file = join(timings, `${tier}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

// Whole seconds first, so that 479.6 s reads 8 min 00 s rather than 7 min 60 s.
const format = (seconds) => (seconds >= 60 ? `${Math.floor(Math.round(seconds) / 60)} min ${String(Math.round(seconds) % 60).padStart(2, '0')} s` : `${seconds.toFixed(1)} s`);

/** Each tier's time and the ten slowest test files among them: this run's records, or the last run of each tier. */
export function report(records = TIERS.map((t) => read(t.name)).filter(Boolean), wallSeconds) {
  const lines = ['', 'Test timing', ''];
  for (const record of records) lines.push(`  ${record.tier.padEnd(6)} ${format(record.seconds).padStart(11)}${record.failed ? '  FAILED' : ''}`);
  const sum = records.reduce((total, r) => total + r.seconds, 0);
  lines.push(`  ${'total'.padEnd(6)} ${format(wallSeconds ?? sum).padStart(11)}  ${wallSeconds === undefined ? '(the sum of the tiers)' : '(as run: lint, unit and build side by side, int from the end of the build)'}`);
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
  const passed = new Set();
  const running = new Map();
  let failed = false;
  // A tier waits only for the chosen tiers it comes after (`npm test int e2e` runs on an existing build).
  const ready = (tier) => tier.after.every((name) => passed.has(name) || !chosen.some((t) => t.name === name));
  const pending = [...chosen];
  while (pending.length || running.size) {
    for (const tier of failed ? [] : pending.filter(ready)) {
      pending.splice(pending.indexOf(tier), 1);
      // Alone, a tier's output streams; beside others, it is kept and printed when the tier ends.
      const quiet = running.size > 0 || pending.some(ready);
      console.log(`\n== ${tier.name}: ${tier.what} (npm run ${tier.script})${quiet ? ', beside other tiers: its output follows when it ends' : ''}`);
      running.set(tier.name, runTier(tier, quiet).then((outcome) => ({ tier, quiet, ...outcome })));
    }
    if (!running.size) break;
    const { tier, quiet, result, output } = await Promise.race(running.values());
    running.delete(tier.name);
    if (quiet) process.stdout.write(`\n== ${tier.name}${result.failed ? ': FAILED' : ': passed'}\n${output}`);
    records.push(result);
    if (result.failed) failed = true;
    else passed.add(tier.name);
  }
  records.sort((a, b) => TIERS.findIndex((t) => t.name === a.tier) - TIERS.findIndex((t) => t.name === b.tier));
  console.log(report(records, (Date.now() - started) / 1000));
  const failures = records.filter((r) => r.failed).map((r) => r.tier);
  if (failures.length) {
    console.error(`\nFailed: ${failures.join(', ')}.`);
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
