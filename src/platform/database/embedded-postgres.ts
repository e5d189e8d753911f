import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * PostgreSQL compiled to WASM (PGlite), persisted in a directory and served on a loopback port so
 * the ordinary Postgres driver talks to it: same driver, same migrations as production.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    await mkdir(dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir });
    // Port 0: the OS picks a free port, so several instances (tests) never collide.
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
    await server.start();
    return new EmbeddedPostgres(db, server, `postgres://postgres@${server.getServerConn()}/postgres`);
  }

  /** Stops accepting connections, then flushes and closes the database files. */
  async stop(): Promise<void> {
    await this.server.stop();
    if (!this.db.closed) await this.db.close();
  }
}
