import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentFile } from 'src/platform/content/content-file';
import { LevelContentSource } from '../../domain/level-content-source.port';

/** Reads content/levels/*.md (the folder is configurable for tests and other content packs). */
export class FileLevelContentSource extends LevelContentSource {
  constructor(private readonly contentDir: string) {
    super();
  }

  async levelFiles(): Promise<ContentFile[]> {
    const dir = join(this.contentDir, 'levels');
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.md')).sort();
    return Promise.all(names.map(async (name) => ({ name: `levels/${name}`, text: await readFile(join(dir, name), 'utf8') })));
  }
}
