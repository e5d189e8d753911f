import { loadConfig } from 'src/config/app-config';
import type { PostView } from 'src/contracts/content';
import { ContentDocuments } from 'src/platform/content/content-documents';
import type { ContentImporter } from 'src/platform/content/content-importer';
import type { SiteContentService } from '../../application/site-content.service';
import { BlogFeedController } from './blog-feed.controller';

describe('BlogFeedController', () => {
  it("builds the blog's Atom feed once, like cached pages, and again after content is imported", async () => {
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' });
    const listeners: (() => void)[] = [];
    const importer = { onImported: (listener: () => void) => listeners.push(listener) } as unknown as ContentImporter;
    let reads = 0;
    const post: PostView = { slug: '2026/hello', title: 'Hello', description: 'First & last', publishedAt: '2026-11-01T00:00:00.000Z', tags: [], html: '<p>Hi</p>' };
    const content = { latestPosts: async () => (reads++, [post]) } as unknown as SiteContentService;
    const feed = new BlogFeedController(content, new ContentDocuments(config, importer), config);
    const atom = await feed.feed();
    expect(atom).toContain('<updated>2026-11-01T00:00:00.000Z</updated><link rel="self" href="http://localhost:3000/blog/feed.xml"/>');
    expect(atom).toContain('<summary>First &amp; last</summary><content type="html">&lt;p&gt;Hi&lt;/p&gt;</content>');
    for (let i = 0; i < 3; i++) expect(await feed.feed()).toBe(atom);
    expect(reads).toBe(1);
    listeners.forEach((listener) => listener());
    await feed.feed();
    expect(reads).toBe(2);
  });
});
