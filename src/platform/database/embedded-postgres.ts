import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DataDirLock } from './data-dir-lock';

/**
 * PostgreSQL compiled to WASM (PGlite), persisted in a directory and served on a loopback port so
 * the ordinary Postgres driver talks to it: same driver, same migrations as production.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock,
    readonly url: string,
  ) {}

  /** DataDirLockedError when another live process has this directory open. */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    await mkdir(dataDir, { recursive: true });
    // Before opening the files: two processes on one PGlite directory corrupt it.
    const lock = await DataDirLock.acquire(dataDir);
    try {
      const db = await PGlite.create({ dataDir });
      // Port 0: the OS picks a free port, so several instances (tests) never collide.
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
      await server.start();
      return new EmbeddedPostgres(db, server, lock, `postgres://postgres@${server.getServerConn()}/postgres`);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Stops accepting connections, then flushes and closes the database files, then unlocks them. */
  async stop(): Promise<void> {
    await this.server.stop();
    if (!this.db.closed) await this.db.close();
    await this.lock.release();
  }
}
