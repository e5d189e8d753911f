import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
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
    for (const source of sources) {
      if ('file' in source) files.push(...(await this.file(source.file)));
      else files.push(...(await this.folder(source.folder, source.recursive ?? false)), ...(await this.assets(source.folder, source.assets ?? [])));
    }
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
    return Promise.all(paths.map(async (path) => ({ name: this.nameOf(path), text: await readFile(path, 'utf8') })));
  }

  private async assets(folder: string, extensions: readonly string[]): Promise<ContentFile[]> {
    if (!extensions.length) return [];
    const entries = await readdir(join(this.contentDir, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    const paths = entries
      .filter((entry) => entry.isFile() && extensions.includes(extname(entry.name).slice(1).toLowerCase()))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    return Promise.all(paths.map(async (path) => ({ name: this.nameOf(path), text: '', bytes: await readFile(path) })));
  }

  private nameOf(path: string): string {
    return relative(this.contentDir, path).split(sep).join('/');
  }
}
