import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatFault } from 'src/platform/content/content-file';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { checkLevelFile } from './check-level-file';

const markdown = new MarkdownItRenderer();
const fixture = readFileSync(join(__dirname, '../../../../test/fixtures/content/levels/010.md'), 'utf8');
function parse(text: string, name = 'levels/010.md') {
  const { guide, faults } = checkLevelFile({ name, text }, { markdown });
  if (faults.length) throw new Error(formatFault(name, faults[0]!));
  return guide!;
}

/** The fixture with one front-matter line replaced (or removed when `to` is empty). */
const withLine = (from: RegExp, to: string) => fixture.replace(from, to);

/** The first fault as content:check prints it, without its line: `levels/010.md: field: problem`. */
function problem(text: string, name = 'levels/010.md'): string {
  const { faults } = checkLevelFile({ name, text }, { markdown });
  if (!faults.length) throw new Error('expected the file to be refused');
  return formatFault(name, faults[0]!).replace(/:\d+: /, ': ');
}

describe('parseLevelFile', () => {
  it('reads a good file: fields, times in seconds, Markdown rendered', () => {
    const guide = parse(fixture);
    expect(guide).toMatchObject({
      number: 10,
      title: 'The Telescope Room',
      difficulty: 'medium',
      referenceSeconds: 180,
      unlocksAt: 9,
      gameVersion: '2.5.0',
      verifiedOn: '2026-10-01',
      video: { youtubeId: 'abcDEF12345', title: 'Level 10 walkthrough', durationSeconds: 240, sample: false },
      introHtml: '<p>An observatory with a dome that will not open.</p>',
    });
    expect(guide.hints).toHaveLength(3);
    expect(guide.steps[0]).toEqual({ html: 'Oil the <strong>telescope</strong> hinge.', atSeconds: 10 });
    expect(guide.searchText).toContain('Oil the telescope hinge.');
    expect(guide.sourceHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['no front matter', 'just text', '(front matter): the file must start with front matter'],
    ['broken YAML', fixture.replace('title: The Telescope Room', 'title: [unclosed'), '(front matter): is not valid YAML'],
    ['a missing title', withLine(/^title: .*\n/m, ''), 'title: '],
    ['an unknown difficulty', withLine(/^difficulty: .*$/m, 'difficulty: extreme'), 'difficulty: '],
    ['a time that is not m:ss', withLine(/^time: .*$/m, 'time: "three minutes"'), 'time: must be a duration like "3:30"'],
    ['a date that is not YYYY-MM-DD', withLine(/^verified: .*$/m, 'verified: 01/10/2026'), 'verified: must be a date like 2026-10-02 (YYYY-MM-DD)'],
    ['a date that does not exist', withLine(/^verified: .*$/m, 'verified: 2026-02-30'), 'verified: is not a real date'],
    ['a bad YouTube id', withLine(/^ {2}youtube_id: .*$/m, '  youtube_id: "<script>"'), 'video.youtube_id: must be an 11-character YouTube id'],
    ['no hints', withLine(/^hints:\n(?: {2}- .*\n)+/m, 'hints: []\n'), 'hints: needs at least one hint'],
    ['an unknown field', fixture.replace('title:', 'spoiler: yes\ntitle:'), '(front matter): '],
    ['a step after the end of the video', withLine(/at: "2:30"/, 'at: "9:30"'), 'steps.2.at: is after the end of the video'],
  ])('refuses %s, naming the file and the field', (_case, text, message) => {
    expect(problem(text)).toContain(`levels/010.md: ${message}`);
  });

  it('refuses a level number that disagrees with the file name', () => {
    expect(problem(fixture, 'levels/011.md')).toBe('levels/011.md: level: is 10 but the file name says 11');
  });

  it('refuses a file over 64 KiB', () => {
    expect(problem(`${fixture}\n${'x'.repeat(70_000)}`)).toContain('(file): is larger than 64 KiB');
  });

  it('sanitises the HTML even though content is trusted', () => {
    const hostile = fixture
      .replace('An observatory with a dome that will not open.', 'Intro <script>alert(1)</script> <img src=x onerror=alert(2)> [link](javascript:alert(3))')
      .replace('Oil the **telescope** hinge.', '"Click <a href=\\"javascript:alert(4)\\" onclick=\\"x()\\">here</a>"');
    const guide = parse(hostile);
    const html = [guide.introHtml, ...guide.steps.map((s) => s.html)].join('\n');
    // Raw HTML is at most shown as text: no element, handler or javascript: link survives.
    expect(html).not.toMatch(/<script|<img|<[^>]+\son\w+=|href="javascript:/i);
    expect(guide.introHtml).toContain('&lt;script&gt;');
  });

  it('keeps safe links, marked nofollow', () => {
    const guide = parse(fixture.replace('An observatory with a dome that will not open.', 'See [the map](https://example.com/map).'));
    expect(guide.introHtml).toBe('<p>See <a href="https://example.com/map" rel="nofollow noopener">the map</a>.</p>');
  });
});
