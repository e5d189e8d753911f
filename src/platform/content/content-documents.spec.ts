import { loadConfig } from 'src/config/app-config';
import type { ContentImporter } from './content-importer';
import { ContentDocuments } from './content-documents';

function documents(env: Record<string, string> = {}) {
  const listeners: (() => void)[] = [];
  const importer = { onImported: (listener: () => void) => listeners.push(listener) } as unknown as ContentImporter;
  return { documents: new ContentDocuments(loadConfig({ NODE_ENV: 'test', ...env }), importer), imported: () => listeners.forEach((listener) => listener()) };
}

describe('ContentDocuments: what is built from the content, kept like cached pages', () => {
  it('builds a document once, and again after content is imported', async () => {
    const { documents: kept, imported } = documents();
    let builds = 0;
    const build = async () => `feed ${++builds}`;
    for (let i = 0; i < 3; i++) expect(await kept.get('blog-feed', build)).toBe('feed 1');
    // Another name is another document.
    expect(await kept.get('levels-feed', async () => 'levels')).toBe('levels');
    imported();
    expect(await kept.get('blog-feed', build)).toBe('feed 2');
    expect(builds).toBe(2);
  });

  it('does not keep a failed build (the database away)', async () => {
    const { documents: kept } = documents();
    await expect(kept.get('sitemap', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await kept.get('sitemap', async () => 'sitemap')).toBe('sitemap');
  });

  it('builds every time with the page cache off', async () => {
    const { documents: kept } = documents({ PAGE_CACHE: 'false' });
    let builds = 0;
    await kept.get('sitemap', async () => ++builds);
    await kept.get('sitemap', async () => ++builds);
    expect(builds).toBe(2);
  });
});
