import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUntilExit, startApp } from './support/app-process';

describe('the embedded database belongs to one process', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guides-embedded-lock-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second process on the same DATA_DIR (naming the holder) while the first keeps serving; a stopped or killed holder frees it', async () => {
    const first = await startApp({ DATA_DIR: dir });
    try {
      const second = await runUntilExit({ DATA_DIR: dir });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain(`in use by process ${first.process.pid}`);
      expect((await fetch(`${first.url}/api/v1/levels`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // Stopped cleanly: the next start opens it.
    const next = await startApp({ DATA_DIR: dir });
    expect((await fetch(`${next.url}/api/v1/levels`)).status).toBe(200);
    next.process.kill('SIGKILL');
    await next.stop();

    // Killed -9: its lock is stale, and the next start takes it over.
    const after = await startApp({ DATA_DIR: dir });
    try {
      expect((await fetch(`${after.url}/api/v1/levels`)).status).toBe(200);
    } finally {
      await after.stop();
    }
  });
});
