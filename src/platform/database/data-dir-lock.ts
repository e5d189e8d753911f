import { createHash } from 'node:crypto';
import { open, readFile, stat, unlink } from 'node:fs/promises';

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

/** Creates `file` holding `text` unless it exists (O_EXCL, atomic on local file systems); false when it did. */
async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A takeover lasts milliseconds: a marker older than this was left by a process killed during one. */
const ABANDONED_TAKEOVER_MS = 10_000;
/** How long a lock file may stay empty (its owner is writing its pid) before this is an error. */
const MAX_WAIT_ROUNDS = 100;

/**
 * An exclusive lock on the embedded database's directory, so a second process never opens the same
 * PGlite files (PGlite takes no lock of its own). Node has no flock: the lock is a file created with
 * O_EXCL ('wx', atomic on local file systems) holding the owner's pid. A lock whose pid is no longer
 * alive (the owner was killed -9) is stale and taken over. The file also holds the owner's start
 * time (Linux), so a pid reused after a crash (a container restarted on the same volume) is not
 * mistaken for the owner; elsewhere such a pid keeps the lock, and the error names it.
 *
 * Two processes finding the same stale lock at once must not both own it: only the one that creates
 * that stale lock's takeover marker (O_EXCL again) removes it, and only if the lock still reads as
 * it did when found stale; then the new lock is created with O_EXCL, so exactly one process wins and
 * the others see a live owner (DataDirLockedError).
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static async acquire(dataDir: string, file = `${dataDir}.lock`): Promise<DataDirLock> {
    const mine = `${process.pid} ${(await startTimeOf(process.pid)) ?? ''}\n`;
    for (let round = 0; ; round++) {
      if (await createExclusive(file, mine)) return new DataDirLock(file);
      const held = await readFile(file, 'utf8').catch(() => '');
      const [pidText = '', started] = held.trim().split(' ');
      const pid = Number.parseInt(pidText, 10);
      // Gone (taken over right now), or empty (its owner is writing it): look again.
      if (!Number.isInteger(pid) || pid <= 0) {
        if (round >= MAX_WAIT_ROUNDS) throw new Error(`The lock file ${file} stays empty: remove it if no process uses ${dataDir}`);
        await pause(20);
        continue;
      }
      // This very process (same pid and start time) holds it too; a pid of ours without a start time is a reused one.
      const ours = pid === process.pid && !!started && `${pid} ${started}\n` === mine;
      if (ours || (pid !== process.pid && alive(pid) && (await sameProcess(pid, started)))) throw new DataDirLockedError(dataDir, pid);
      await DataDirLock.takeOver(file, held);
    }
  }

  /** Removes the stale lock that read `held`, if this process is the one to take it over. */
  private static async takeOver(file: string, held: string): Promise<void> {
    const marker = `${file}.takeover-${createHash('sha256').update(held).digest('hex').slice(0, 16)}`;
    if (!(await createExclusive(marker, `${process.pid}\n`))) {
      // Another process is taking it over: its new lock decides. A marker of a process killed mid-way is cleared.
      const since = await stat(marker).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (since > ABANDONED_TAKEOVER_MS) await unlink(marker).catch(() => undefined);
      await pause(20);
      return;
    }
    try {
      // Still the same stale lock (not one created since by a new owner): remove it.
      if ((await readFile(file, 'utf8').catch(() => '')) === held) await unlink(file).catch(() => undefined);
    } finally {
      await unlink(marker).catch(() => undefined);
    }
  }

  async release(): Promise<void> {
    await unlink(this.file).catch(() => undefined);
  }
}
