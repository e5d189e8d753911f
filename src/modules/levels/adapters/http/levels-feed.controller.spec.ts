import { loadConfig } from 'src/config/app-config';
import { ContentDocuments } from 'src/platform/content/content-documents';
import type { ContentImporter } from 'src/platform/content/content-importer';
import type { LevelsService } from '../../application/levels.service';
import { LevelsFeedController } from './levels-feed.controller';

describe('LevelsFeedController', () => {
  it('builds the Atom feed of updated guides once, like cached pages, and again after content is imported', async () => {
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' });
    const listeners: (() => void)[] = [];
    const importer = { onImported: (listener: () => void) => listeners.push(listener) } as unknown as ContentImporter;
    let reads = 0;
    const levels = { recentlyUpdated: async () => (reads++, [{ number: 27, title: 'The Locked <Observatory>', updatedAt: new Date('2026-11-01T00:00:00Z') }]) } as unknown as LevelsService;
    const feed = new LevelsFeedController(levels, new ContentDocuments(config, importer), config);
    const atom = await feed.feed();
    expect(atom).toContain('<entry><id>http://localhost:3000/levels/27</id><title>Level 27: The Locked &lt;Observatory&gt;</title><link href="http://localhost:3000/levels/27"/><updated>2026-11-01T00:00:00.000Z</updated>');
    for (let i = 0; i < 3; i++) expect(await feed.feed()).toBe(atom);
    expect(reads).toBe(1);
    listeners.forEach((listener) => listener());
    await feed.feed();
    expect(reads).toBe(2);
  });
});
