/** The hash of each kind's last import (written by the kind's sync, in its transaction). */
export abstract class ContentImportLog {
  abstract lastHash(kind: string): Promise<string | null>;
}
