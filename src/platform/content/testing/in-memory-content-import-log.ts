import { ContentImportLog } from '../content-import-log.port';

/** Each kind's last imported hash in memory, for specs (a kind's sync writes it). */
export class InMemoryContentImportLog extends ContentImportLog {
  readonly hashes = new Map<string, string>();

  async lastHash(kind: string): Promise<string | null> {
    return this.hashes.get(kind) ?? null;
  }
}
