import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * Where the database lives: PostgreSQL at DATABASE_URL, or the embedded PGlite under DATA_DIR when
 * nothing is configured. Everything above this class sees a Postgres URL either way.
 */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private constructor(
    readonly url: string,
    readonly kind: 'postgres' | 'embedded',
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseServer> {
    const db = config.database;
    if (db.kind === 'postgres') return new DatabaseServer(db.url, 'postgres');
    const embedded = await EmbeddedPostgres.start(db.dataDir);
    return new DatabaseServer(embedded.url, 'embedded', embedded);
  }

  /** Runs after the ORM has closed its pool (DatabaseModule closes it first). */
  async onApplicationShutdown(): Promise<void> {
    await this.embedded?.stop();
  }
}
