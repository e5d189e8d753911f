import { ContentFileError } from 'src/platform/content/content-file';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { parsePageFile, parsePostFile } from './content-files';

const markdown = new MarkdownItRenderer();
const post = (front: string, name = 'blog/2026/hello.md', body = 'Hello **players**.') => ({ name, text: `---\n${front}\n---\n${body}\n` });

describe('parsePostFile', () => {
  it('takes the slug from the path, folders included, and keeps the time of day', () => {
    const parsed = parsePostFile(post('title: Hello\ndate: 2026-10-15 09:30\ntags: [tips, tips, news]'), markdown);
    expect(parsed).toMatchObject({ slug: '2026/hello', title: 'Hello', tags: ['tips', 'news'], html: '<p>Hello <strong>players</strong>.</p>' });
    expect(parsed.publishedAt.toISOString()).toBe('2026-10-15T09:30:00.000Z');
  });

  it.each([
    ['15/10/2026', 'date: Invalid date "15/10/2026": it must match YYYY-MM-DD with an optional time'],
    ['2026-02-30', 'date: Invalid date "2026-02-30"'],
    ['"tomorrow"', 'date: Invalid date "tomorrow"'],
  ])('refuses the date %s with the invalid-date error, naming the file', (date, message) => {
    expect(() => parsePostFile(post(`title: Hello\ndate: ${date}`), markdown)).toThrow(`blog/2026/hello.md: ${message}`);
  });

  it('refuses bad tags and slugs', () => {
    expect(() => parsePostFile(post('title: Hello\ndate: 2026-10-15\ntags: [Bad Tag]'), markdown)).toThrow('blog/2026/hello.md: tags.0: ');
    expect(() => parsePostFile(post('title: Hello\ndate: 2026-10-15', 'blog/Hello World.md'), markdown)).toThrow(ContentFileError);
  });
});

describe('parsePageFile', () => {
  it('reads a page and renders its Markdown safely', () => {
    const page = parsePageFile({ name: 'pages/faq.md', text: '---\ntitle: FAQ\nupdated: 2026-11-01\n---\n## Q\n<script>x()</script>' }, markdown);
    expect(page).toMatchObject({ slug: 'faq', title: 'FAQ', updatedOn: '2026-11-01' });
    expect(page.html).toBe('<h2>Q</h2>\n<p>&lt;script&gt;x()&lt;/script&gt;</p>');
    // Plain text for the search: title, description, then the body without markup.
    expect(page.searchText).toBe('FAQ\n\nQ <script>x()</script>');
  });

  it('refuses a page without an update date', () => {
    expect(() => parsePageFile({ name: 'pages/faq.md', text: '---\ntitle: FAQ\n---\n' }, markdown)).toThrow('pages/faq.md: updated: ');
  });
});
