import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock, DataDirLockedError } from './data-dir-lock';

describe('DataDirLock', () => {
  let dir: string;
  const dataDir = () => join(dir, 'pglite');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guides-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('holds the pid, refuses while the holder lives (naming it), and frees the directory on release', async () => {
    // Another live process holds it.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await once(other, 'spawn');
    try {
      await writeFile(`${dataDir()}.lock`, `${other.pid}\n`);
      const refused = await DataDirLock.acquire(dataDir()).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DataDirLockedError);
      expect((refused as Error).message).toContain(`in use by process ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
      await once(other, 'exit');
    }
    // Its holder is gone (killed -9): the lock is stale and taken over.
    const lock = await DataDirLock.acquire(dataDir());
    expect((await readFile(`${dataDir()}.lock`, 'utf8')).split(' ')[0]).toBe(String(process.pid));
    await lock.release();
    await (await DataDirLock.acquire(dataDir())).release();
  });
});
