import { formatFault, type ContentFile } from 'src/platform/content/content-file';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { checkLevelFiles } from './check-level-files';

const markdown = new MarkdownItRenderer();

/** The first 24 bytes of a PNG: all the checks read. */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(24);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

const GUIDE = `---
level: 27
title: The Locked Observatory
difficulty: medium
time: "3:30"
game_version: "2.4.1"
verified: 2026-10-02
video:
  youtube_id: SAMPLE00027
  title: Walkthrough
  duration: "4:12"
puzzles:
  - id: telescope
    question: How do I move the telescope?
    object: the brass telescope
    hints:
      - Something squeaks.
      - Oil it.
    steps:
      - text: Oil the **hinge**, see [level 26](/levels/26).
        at: "0:41"
        image: images/027-telescope.png
        alt: The telescope beside the bookshelf
        marks:
          - { x: 40, y: 55, r: 8, label: the hinge }
  - id: bonus-star
    question: Where is the bonus star?
    extra: bonus
    hints:
      - Look up.
    steps:
      - text: Tap the star.
  - id: dome-code
    question: What is the dome code?
    object: the dial lock
    hints:
      - Count stars.
    steps:
      - text: Enter **4-6-2**.
        at: "3:20"
---
An observatory.
`;

function check(text = GUIDE, assets: Record<string, Buffer> = { 'levels/images/027-telescope.png': png(1200, 800) }) {
  const files: ContentFile[] = [
    { name: 'levels/026.md', text: GUIDE.replace('level: 27', 'level: 26').replace(/puzzles:[\s\S]*?---/, 'hints: [one]\nsteps:\n  - text: go\n---') },
    { name: 'levels/027.md', text },
    ...Object.entries(assets).map(([name, bytes]) => ({ name, text: '', bytes })),
  ];
  return checkLevelFiles(files, markdown);
}

/** The faults as content:check prints them. */
const printed = (text: string, assets?: Record<string, Buffer>) => check(text, assets).faults.map(({ file, fault }) => formatFault(file, fault));

describe('checkLevelFiles: puzzles and pictures', () => {
  it('reads puzzles: the main escape first, extras after, steps stored once with each puzzle its share', () => {
    const { guides, pictures, faults } = check();
    expect(faults).toEqual([]);
    const guide = guides.find((g) => g.number === 27)!;
    expect(guide.hints).toEqual([]);
    expect(guide.puzzles!.map((p) => [p.id, p.extra, p.firstStep, p.stepCount])).toEqual([
      ['telescope', undefined, 0, 1],
      ['dome-code', undefined, 1, 1],
      ['bonus-star', 'bonus', 2, 1],
    ]);
    expect(guide.puzzles![0]).toMatchObject({ question: 'How do I move the telescope?', object: 'the brass telescope', hintsHtml: ['Something squeaks.', 'Oil it.'] });
    expect(guide.steps.map((s) => s.html)).toEqual(['Oil the <strong>hinge</strong>, see <a href="/levels/26" rel="nofollow noopener">level 26</a>.', 'Enter <strong>4-6-2</strong>.', 'Tap the star.']);
    const picture = guide.steps[0]!.picture!;
    expect(picture).toMatchObject({ width: 1200, height: 800, alt: 'The telescope beside the bookshelf', widths: [480, 960], marks: [{ x: 40, y: 55, r: 8, label: 'the hinge' }] });
    expect(picture.src).toMatch(/^\/guide-images\/[0-9a-f]{12}$/);
    expect(pictures).toHaveLength(1);
    expect(pictures[0]!.hash).toBe(picture.src.split('/').pop());
  });

  it('searches by questions and objects, never by hints', () => {
    const { searchText } = check().guides.find((g) => g.number === 27)!;
    expect(searchText).toContain('How do I move the telescope?');
    expect(searchText).toContain('the dial lock');
    expect(searchText).not.toContain('Something squeaks');
  });

  it('makes copies no wider than the source', () => {
    const guide = check(GUIDE, { 'levels/images/027-telescope.png': png(500, 400) }).guides.find((g) => g.number === 27)!;
    expect(guide.steps[0]!.picture!.widths).toEqual([480, 500]);
  });

  it('changes the guide when only its picture changes', () => {
    const hash = (bytes: Buffer) => check(GUIDE, { 'levels/images/027-telescope.png': bytes }).guides.find((g) => g.number === 27)!.sourceHash;
    expect(hash(png(1200, 800))).not.toBe(hash(png(1200, 801)));
  });

  const replace = (from: string | RegExp, to: string) => GUIDE.replace(from, to);
  it.each([
    ['a level ladder beside puzzles', replace('puzzles:\n', 'hints: [a]\npuzzles:\n'), 'levels/027.md:12: hints: goes inside each puzzle when the guide has puzzles'],
    ['neither hints nor puzzles', GUIDE.replace(/puzzles:[\s\S]*?---/, 'steps:\n  - text: go\n---'), 'levels/027.md:2: hints: needs at least one hint (or puzzles, each with its hints)'],
    ['two puzzles with one id', replace('id: dome-code', 'id: telescope'), 'levels/027.md:33: puzzles.2.id: telescope is used by an earlier puzzle'],
    ['an id that is not a slug', replace('id: dome-code', 'id: Dome Code'), 'levels/027.md:33: puzzles.2.id: must be a short slug like dome-code'],
    ['a puzzle with no question', replace('    question: What is the dome code?\n', ''), 'levels/027.md:33: puzzles.2.question: '],
    ['an unknown kind of extra', replace('extra: bonus', 'extra: trophy'), 'levels/027.md:28: puzzles.1.extra: '],
    ['only extras', replace(/ {2}- id: telescope[\s\S]*?(?= {2}- id: bonus-star)/, '').replace(/ {2}- id: dome-code[\s\S]*?(?=---)/, ''), 'levels/027.md:12: puzzles: needs at least one puzzle of the main escape'],
    ['nine hints in a puzzle', replace('      - Count stars.\n', '      - Count stars.\n'.repeat(9)), 'levels/027.md:36: puzzles.2.hints: at most 8 hints, least to most revealing'],
    ['a puzzle with no steps', replace(/ {4}steps:\n {6}- text: Tap the star.\n/, '    steps: []\n'), 'levels/027.md:31: puzzles.1.steps: needs at least one step'],
    ['a picture that is not there', replace('027-telescope.png', '027-missing.png'), 'levels/027.md:22: puzzles.0.steps.0.image: levels/images/027-missing.png does not exist'],
    ['a picture outside the content', replace('images/027-telescope.png', 'images/../../secret.png'), 'levels/027.md:22: puzzles.0.steps.0.image: must be a .png or .jpg path beside the guide'],
    ['a picture with no alt text', replace('        alt: The telescope beside the bookshelf\n', ''), 'levels/027.md:20: puzzles.0.steps.0.alt: a picture needs alt text'],
    ['marks with no picture', replace(/ {8}image: .*\n {8}alt: .*\n/, ''), 'levels/027.md:22: puzzles.0.steps.0.marks: marks are drawn on a picture, but the step has no image'],
    ['five marks', replace(/( {10}- \{ x: 40.*\n)/, '$1$1$1$1$1'), 'levels/027.md:24: puzzles.0.steps.0.marks: at most 4 marks a picture'],
    ['a mark off the picture', replace('x: 40', 'x: 140'), 'levels/027.md:25: puzzles.0.steps.0.marks.0.x: must be 0 to 100 (percent of the width)'],
    ['a mark too large', replace('r: 8', 'r: 40'), 'levels/027.md:25: puzzles.0.steps.0.marks.0.r: must be 1 to 25 (percent of the width)'],
    ['a mark with no label', replace('label: the hinge', 'label: ""'), 'levels/027.md:25: puzzles.0.steps.0.marks.0.label: must not be empty'],
    ['a link to a level with no guide', replace('/levels/26', '/levels/25'), 'levels/027.md:20: puzzles.0.steps.0.text: links to level 25, which has no guide in content/levels'],
    ['a link in the body to a level with no guide', replace('An observatory.', 'An observatory.\n\nLike [level 30](/levels/30).'), 'levels/027.md:44: (body): links to level 30, which has no guide in content/levels'],
    ['a moment after the end of the video', replace('at: "3:20"', 'at: "5:20"'), 'levels/027.md:40: puzzles.2.steps.0.at: is after the end of the video'],
  ])('refuses %s, with the file, line and field', (_case, text, fault) => {
    expect(printed(text)[0]).toContain(fault);
  });

  it.each([
    ['not a PNG or JPEG', Buffer.from('GIF89a-not-a-png-at-all-really'), 'levels/images/027-telescope.png is not a PNG or JPEG image'],
    ['over its bounds', png(5000, 800), 'levels/images/027-telescope.png is 5000x800 px: at most 4000 px a side'],
    ['too narrow', png(200, 800), 'levels/images/027-telescope.png is 200 px wide: at least 320 px'],
  ])('refuses a picture %s, naming the file and the field', (_case, bytes, problem) => {
    expect(printed(GUIDE, { 'levels/images/027-telescope.png': bytes })).toEqual([`levels/027.md:22: puzzles.0.steps.0.image: ${problem}`]);
  });

  it('lists every fault of every file, not just the first', () => {
    expect(printed(replace('x: 40', 'x: 140').replace('id: dome-code', 'id: telescope'))).toHaveLength(2);
  });
});
