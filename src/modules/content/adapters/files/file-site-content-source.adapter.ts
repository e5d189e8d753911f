import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ContentFile } from 'src/platform/content/content-file';
import { SiteContentSource } from '../../domain/site-content-source.port';

/** content/pages/*.md and content/blog/**.md (folders in the blog become slug segments). */
export class FileSiteContentSource extends SiteContentSource {
  constructor(private readonly contentDir: string) {
    super();
  }

  pageFiles(): Promise<ContentFile[]> {
    return this.read('pages', false);
  }

  postFiles(): Promise<ContentFile[]> {
    return this.read('blog', true);
  }

  async mediaFile(): Promise<ContentFile | null> {
    const text = await readFile(join(this.contentDir, 'media.yaml'), 'utf8').catch(() => null);
    return text === null ? null : { name: 'media.yaml', text };
  }

  private async read(folder: string, recursive: boolean): Promise<ContentFile[]> {
    const dir = join(this.contentDir, folder);
    const entries = await readdir(dir, { recursive, withFileTypes: true }).catch(() => []);
    const paths = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    return Promise.all(
      paths.map(async (path) => ({ name: relative(this.contentDir, path).split(sep).join('/'), text: await readFile(path, 'utf8') })),
    );
  }
}
