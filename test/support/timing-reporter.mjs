// Records each jest tier's wall time and every test file's time under var/test-timings/ (or
// TEST_TIMINGS_DIR), where `npm test` and `npm run test:timing` read them. Prints nothing itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export default class TimingReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.dir = process.env.TEST_TIMINGS_DIR || join(globalConfig.rootDir, 'var/test-timings');
    this.files = [];
  }

  onRunStart() {
    this.started = Date.now();
  }

  onTestResult(test, result) {
    const tier = test.context.config.displayName?.name ?? 'jest';
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    this.files.push({ tier, file: relative(this.rootDir, result.testFilePath), seconds, failed: result.numFailingTests > 0 || !!result.testExecError });
  }

  onRunComplete() {
    const seconds = (Date.now() - this.started) / 1000;
    mkdirSync(this.dir, { recursive: true });
    for (const tier of new Set(this.files.map((f) => f.tier))) {
      const files = this.files.filter((f) => f.tier === tier);
      writeFileSync(join(this.dir, `${tier}.json`), JSON.stringify({ tier, seconds, finishedAt: new Date().toISOString(), files }, null, 1));
    }
  }
}
