import type { ContentFile } from '../content-file';
import { ContentReader, type ContentSource } from '../content-reader.port';

/** The content folder as a map of names to texts, for specs (FileContentReader reads the real one). */
export class InMemoryContentReader extends ContentReader {
  readonly files = new Map<string, string>();

  async read(sources: readonly ContentSource[]): Promise<ContentFile[]> {
    const names = [...this.files.keys()].sort();
    return sources.flatMap((source) =>
      names.filter((name) => ('file' in source ? name === source.file : name.startsWith(`${source.folder}/`))).map((name) => ({ name, text: this.files.get(name)! })),
    );
  }
}
