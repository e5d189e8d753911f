import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ContentFile } from './content-file';
import { ContentReader, type ContentSource } from './content-reader.port';

/**
 * Reads content/ (the folder is configurable for tests and other content packs). A missing folder
 * or file reads as none. Names are relative to the root with '/', sorted within each source.
 */
export class FileContentReader extends ContentReader {
  constructor(private readonly contentDir: string) {
    super();
  }

  async read(sources: readonly ContentSource[]): Promise<ContentFile[]> {
    const files: ContentFile[] = [];
    for (const source of sources) files.push(...('file' in source ? await this.file(source.file) : await this.folder(source.folder, source.recursive ?? false)));
    return files;
  }

  private async file(name: string): Promise<ContentFile[]> {
    const text = await readFile(join(this.contentDir, name), 'utf8').catch(() => null);
    return text === null ? [] : [{ name, text }];
  }

  private async folder(folder: string, recursive: boolean): Promise<ContentFile[]> {
    const entries = await readdir(join(this.contentDir, folder), { recursive, withFileTypes: true }).catch(() => []);
    const paths = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    return Promise.all(paths.map(async (path) => ({ name: relative(this.contentDir, path).split(sep).join('/'), text: await readFile(path, 'utf8') })));
  }
}
