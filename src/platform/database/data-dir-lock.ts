import { open, readFile, unlink } from 'node:fs/promises';

/** Another live process holds the embedded database's files. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holderPid} (another npm start, or a CLI without DATABASE_URL). ` +
        'Stop that process first, or give this one another DATA_DIR or a DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** When a process started (Linux: clock ticks since boot, /proc/<pid>/stat field 22); undefined elsewhere. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** Whether the live process `pid` is the one that started at `started` (unknown: assume it is). */
async function sameProcess(pid: number, started: string | undefined): Promise<boolean> {
  if (!started) return true;
  const now = await startTimeOf(pid);
  return now === undefined || now === started;
}

/**
 * An exclusive lock on the embedded database's directory, so a second process never opens the same
 * PGlite files (PGlite takes no lock of its own). Node has no flock: the lock is a file created with
 * O_EXCL ('wx', atomic on local file systems) holding the owner's pid. A lock whose pid is no longer
 * alive (the owner was killed -9) is stale and taken over. The file also holds the owner's start
 * time (Linux), so a pid reused after a crash (a container restarted on the same volume) is not
 * mistaken for the owner; elsewhere such a pid keeps the lock, and the error names it.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static async acquire(dataDir: string, file = `${dataDir}.lock`): Promise<DataDirLock> {
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await open(file, 'wx', 0o600);
        try {
          await handle.writeFile(`${process.pid} ${(await startTimeOf(process.pid)) ?? ''}\n`);
          await handle.sync();
        } finally {
          await handle.close();
        }
        return new DataDirLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      }
      const held = await readFile(file, 'utf8').catch(() => '');
      const [pidText = '', started] = held.trim().split(' ');
      const pid = Number.parseInt(pidText, 10);
      // An empty or unreadable file is a lock being written right now: look again.
      if (!Number.isInteger(pid) || pid <= 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (pid !== process.pid && alive(pid) && (await sameProcess(pid, started))) throw new DataDirLockedError(dataDir, pid);
      // Stale (its process is gone): remove it only if it still names that pid, then try again.
      if ((await readFile(file, 'utf8').catch(() => '')) === held) await unlink(file).catch(() => undefined);
    }
  }

  async release(): Promise<void> {
    await unlink(this.file).catch(() => undefined);
  }
}
