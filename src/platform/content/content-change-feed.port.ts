/**
 * How a content import in one process (a web process at start, `npm run content:import`) reaches
 * the page caches of every web process. Adapters: PostgresContentChangeFeed (LISTEN/NOTIFY on the
 * shared database, with or without Redis) and LocalContentChangeFeed (the embedded database: one
 * process, which clears its own cache).
 */
export abstract class ContentChangeFeed {
  /** Tells every process that `kind` changed (after the import committed). */
  abstract publish(kind: string): Promise<void>;
  /** Calls `listener` for each change published by any process, this one included. */
  abstract subscribe(listener: (kind: string) => void): void;
}

/** The embedded database belongs to one process (DATA_DIR is locked): nobody else to tell. */
export class LocalContentChangeFeed extends ContentChangeFeed {
  async publish(): Promise<void> {}
  subscribe(): void {}
}
