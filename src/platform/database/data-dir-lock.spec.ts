import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { poll } from 'test/support/poll';
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

  it('is owned by exactly one of many processes that find the same stale lock at the same instant, the others told it is in use', async () => {
    const PROCESSES = 4;
    const PER_PROCESS = 2; // promises at once in each process
    const ROUNDS = 25;
    // Each contender process runs rounds on command: at the given instant, PER_PROCESS acquires at once.
    const contender = `
      const { DataDirLock } = await import(${JSON.stringify(resolve(__dirname, 'data-dir-lock.ts'))});
      console.log(JSON.stringify({ ready: true }));
      for await (const line of require('node:readline').createInterface({ input: process.stdin })) {
        const [round, at] = line.split(' ').map(Number);
        // Sleep until just before the instant, then spin the last few milliseconds to meet it.
        await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now() - 15)));
        while (Date.now() < at);
        const outcomes = await Promise.all(Array.from({ length: ${PER_PROCESS} }, () =>
          DataDirLock.acquire(process.argv[1]).then(() => 'owner', (e) => e.name === 'DataDirLockedError' ? 'in use' : 'raw ' + (e.code ?? e.message))));
        console.log(JSON.stringify({ round, outcomes }));
      }`;
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    const children: ChildProcessWithoutNullStreams[] = [];
    const answers = new Map<number, string[]>();
    let ready = 0;
    try {
      for (let i = 0; i < PROCESSES; i++) {
        const child = spawn(process.execPath, ['--experimental-transform-types', '--no-warnings', '--input-type=commonjs', '-e', `(async () => {${contender}})()`, dataDir()]);
        children.push(child);
        createInterface({ input: child.stdout }).on('line', (line) => {
          const message = JSON.parse(line) as { ready?: true; round: number; outcomes: string[] };
          if (message.ready) return void ready++;
          const { round, outcomes } = message;
          answers.set(round, [...(answers.get(round) ?? []), ...outcomes]);
        });
      }
      await poll(() => ready, 30_000).toBe(PROCESSES);
      for (let round = 0; round < ROUNDS; round++) {
        // Left by a process killed -9 (the pid of one that has exited).
        await writeFile(`${dataDir()}.lock`, `${dead.pid} 1\n`);
        const at = Date.now() + 60;
        for (const child of children) child.stdin.write(`${round} ${at}\n`);
        await poll(() => answers.get(round)?.length ?? 0, 30_000).toBe(PROCESSES * PER_PROCESS);
        const outcomes = answers.get(round)!;
        expect({ round, owners: outcomes.filter((o) => o === 'owner').length, others: outcomes.filter((o) => o !== 'owner') }).toEqual({
          round,
          owners: 1,
          others: Array(PROCESSES * PER_PROCESS - 1).fill('in use'),
        });
      }
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  }, 120_000);
});
