import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DataDirLock } from './data-dir-lock';

/**
 * PostgreSQL compiled to WASM (PGlite), persisted in a directory and served on a Unix socket so the
 * ordinary Postgres driver talks to it: same driver, same migrations as production. PGlite's socket
 * server has no authentication, so it listens on no TCP port (any local user could connect) but on
 * a socket in a fresh directory only this user may enter (0700).
 */
/** Names the socket file only: nothing listens on a TCP port. */
const SOCKET_PORT = 5432;

export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock,
    private readonly socketDir: string,
    readonly url: string,
  ) {}

  /** DataDirLockedError when another live process has this directory open. */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    await mkdir(dataDir, { recursive: true });
    // Before opening the files: two processes on one PGlite directory corrupt it.
    const lock = await DataDirLock.acquire(dataDir);
    // Under the temporary directory, not DATA_DIR: a socket path is limited to about 100 bytes.
    const socketDir = await mkdtemp(join(tmpdir(), 'guides-pg-'));
    try {
      await chmod(socketDir, 0o700);
      // pg_trgm (the search's typo tolerance) must be loaded with the instance; the migration creates it.
      const db = await PGlite.create({ dataDir, extensions: { pg_trgm } });
      // The driver looks for `<host>/.s.PGSQL.<port>` when the host is a directory.
      const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 8 });
      await server.start();
      return new EmbeddedPostgres(db, server, lock, socketDir, `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(socketDir)}`);
    } catch (error) {
      await rm(socketDir, { recursive: true, force: true });
      await lock.release();
      throw error;
    }
  }

  /** Stops accepting connections, then flushes and closes the database files, then unlocks them. */
  async stop(): Promise<void> {
    await this.server.stop();
    if (!this.db.closed) await this.db.close();
    await rm(this.socketDir, { recursive: true, force: true });
    await this.lock.release();
  }
}
