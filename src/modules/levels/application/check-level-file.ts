import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { GuidePuzzle, GuideStep, StepPicture } from 'src/contracts/levels';
import { checkContentFile, type ContentFault, type ContentFile } from 'src/platform/content/content-file';
import type { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import type { LevelGuide, PictureSource } from '../domain/level';
import { levelFileSchema, type LevelFile } from './level-file.schema';
import { readPictureHeader } from './picture-header';

/** Where the site serves the step pictures' copies (adapters/http/guide-picture.controller.ts). */
export const PICTURES_PATH = '/guide-images';
/** Widths of the responsive copies, capped at the source's own width. */
const PICTURE_WIDTHS = [480, 960];
/** Bumped when the copies' settings change: new names, so no browser keeps an old copy as immutable. */
export const PICTURE_SETTINGS = 'v2';
export const PICTURE_BOUNDS = { maxBytes: 4 * 1024 * 1024, minWidth: 320, maxSide: 4000 } as const;

/** What the checks know beside the file: the pictures under content/levels, the levels that have a guide. */
export interface LevelFileContext {
  markdown: MarkdownRenderer;
  /** Asset files by name relative to the content root ('levels/images/027-globe.png'). */
  assets?: ReadonlyMap<string, Buffer>;
  /** Levels with a guide file: a link to /levels/N must name one of them. Unchecked when absent. */
  guides?: ReadonlySet<number>;
}

export interface CheckedLevelFile {
  guide?: LevelGuide;
  pictures: PictureSource[];
  faults: ContentFault[];
}

const widthsFor = (width: number) => [...new Set([...PICTURE_WIDTHS.filter((w) => w < width), Math.min(width, PICTURE_WIDTHS.at(-1)!)])];

/**
 * Checks one guide file, every rule, and collects every fault with its line (content:check prints
 * them; the import refuses the whole content on any): the front matter's format, puzzles, pictures
 * (a PNG or JPEG beside the guide, within bounds, with alt text), marks, links to other levels.
 */
export function checkLevelFile(file: ContentFile, context: LevelFileContext): CheckedLevelFile {
  const { markdown } = context;
  const checked = checkContentFile(file, levelFileSchema);
  const faults = [...checked.faults];
  const f = checked.data;
  if (!f) return { pictures: [], faults };
  const fault = (path: (string | number)[], problem: string) => faults.push({ field: path.join('.'), line: checked.lineOf(path), problem });

  const fileNumber = /(\d+)\.md$/.exec(file.name)?.[1];
  if (fileNumber !== undefined && Number(fileNumber) !== f.level) fault(['level'], `is ${f.level} but the file name says ${Number(fileNumber)}`);

  // One ladder or puzzles: both read as puzzles here, the one ladder without a question.
  const parts: { path: (string | number)[]; puzzle?: NonNullable<LevelFile['puzzles']>[number]; hints: string[]; steps: NonNullable<LevelFile['steps']> }[] = f.puzzles
    ? f.puzzles.map((puzzle, i) => ({ path: ['puzzles', i], puzzle, hints: puzzle.hints, steps: puzzle.steps }))
    : [{ path: [], hints: f.hints!, steps: f.steps! }];
  // The main escape first, then the extras, whatever the file's order: the page and the steps' numbers follow it.
  parts.sort((a, b) => Number(!!a.puzzle?.extra) - Number(!!b.puzzle?.extra));

  const pictures = new Map<string, PictureSource>();
  const picture = (path: (string | number)[], step: NonNullable<LevelFile['steps']>[number]): StepPicture | undefined => {
    if (!step.image) return undefined;
    const name = posix.join(posix.dirname(file.name), step.image);
    const bytes = context.assets?.get(name);
    if (!context.assets) return undefined;
    if (!bytes) return void fault([...path, 'image'], `${name} does not exist`);
    const header = readPictureHeader(bytes);
    if (!header) return void fault([...path, 'image'], `${name} is not a PNG or JPEG image`);
    const { maxBytes, minWidth, maxSide } = PICTURE_BOUNDS;
    if (bytes.length > maxBytes) return void fault([...path, 'image'], `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MiB: at most ${maxBytes / 1024 / 1024} MiB`);
    if (header.width > maxSide || header.height > maxSide) return void fault([...path, 'image'], `${name} is ${header.width}x${header.height} px: at most ${maxSide} px a side`);
    if (header.width < minWidth) return void fault([...path, 'image'], `${name} is ${header.width} px wide: at least ${minWidth} px`);
    const hash = createHash('sha256').update(PICTURE_SETTINGS).update(bytes).digest('hex').slice(0, 12);
    const widths = widthsFor(header.width);
    pictures.set(hash, { hash, bytes, widths });
    return { src: `${PICTURES_PATH}/${hash}`, widths, width: header.width, height: header.height, alt: step.alt!, marks: step.marks ?? [] };
  };

  const steps: GuideStep[] = [];
  const puzzles: GuidePuzzle[] = [];
  for (const part of parts) {
    const firstStep = steps.length;
    part.steps.forEach((step, i) => {
      const path = [...part.path, 'steps', i];
      if (step.at !== undefined && f.video && step.at > f.video.duration) fault([...path, 'at'], 'is after the end of the video');
      const image = picture(path, step);
      steps.push({ html: markdown.renderInline(step.text), ...(step.at !== undefined ? { atSeconds: step.at } : {}), ...(image ? { picture: image } : {}) });
    });
    if (part.puzzle) {
      const { id, question, object, extra } = part.puzzle;
      puzzles.push({ id, question, ...(object ? { object } : {}), ...(extra ? { extra } : {}), hintsHtml: part.hints.map((h) => markdown.renderInline(h)), firstStep, stepCount: part.steps.length });
    }
  }

  if (context.guides) checkLinks(f, checked.body, context.guides, fault, (line, problem) => faults.push({ field: '(body)', line, problem }), checked.bodyLine);
  const body = checked.body;
  const guide: LevelGuide = {
    number: f.level,
    title: f.title,
    difficulty: f.difficulty,
    referenceSeconds: f.time,
    unlocksAt: f.unlocks_at,
    introHtml: body ? markdown.render(body) : '',
    tips: f.tips.map((t) => markdown.renderInline(t)),
    hints: f.puzzles ? [] : f.hints!.map((h) => markdown.renderInline(h)),
    steps,
    ...(f.puzzles ? { puzzles } : {}),
    video: f.video ? { youtubeId: f.video.youtube_id, title: f.video.title, durationSeconds: f.video.duration, sample: f.video.sample } : undefined,
    gameVersion: f.game_version,
    verifiedOn: f.verified,
    // Questions and objects are how players put it; hints stay out (a search result must not spoil).
    searchText: [f.title, ...puzzles.flatMap((p) => [p.question, p.object ?? '']), body, ...f.tips, ...parts.flatMap((p) => p.steps.map((s) => s.text))]
      .filter(Boolean)
      .map((t) => markdown.toPlainText(t))
      .join('\n'),
    // A changed picture changes the guide (its copies' names) even when the file's text is the same.
    sourceHash: pictures.size ? createHash('sha256').update(checked.hash).update([...pictures.keys()].join(',')).digest('hex') : checked.hash,
  };
  return { guide: faults.length ? undefined : guide, pictures: [...pictures.values()], faults };
}

const LEVEL_LINK = /\]\(\/levels\/(\d+)(?:[#?][^)]*)?\)/g;

/** Links to /levels/N in the body, tips, hints and steps must name a level with a guide. */
function checkLinks(
  f: LevelFile,
  body: string,
  guides: ReadonlySet<number>,
  fault: (path: (string | number)[], problem: string) => void,
  bodyFault: (line: number, problem: string) => void,
  bodyLine: number,
): void {
  const missing = (number: number) => number !== f.level && !guides.has(number);
  const problem = (number: number) => `links to level ${number}, which has no guide in content/levels`;
  body.split('\n').forEach((text, i) => {
    for (const match of text.matchAll(LEVEL_LINK)) if (missing(Number(match[1]))) bodyFault(bodyLine + i, problem(Number(match[1])));
  });
  const texts: [(string | number)[], string][] = [
    ...f.tips.map((t, i): [(string | number)[], string] => [['tips', i], t]),
    ...(f.hints ?? []).map((t, i): [(string | number)[], string] => [['hints', i], t]),
    ...(f.steps ?? []).map((s, i): [(string | number)[], string] => [['steps', i, 'text'], s.text]),
    ...(f.puzzles ?? []).flatMap((p, i) => [
      ...p.hints.map((t, j): [(string | number)[], string] => [['puzzles', i, 'hints', j], t]),
      ...p.steps.map((s, j): [(string | number)[], string] => [['puzzles', i, 'steps', j, 'text'], s.text]),
    ]),
  ];
  for (const [path, text] of texts) {
    for (const match of text.matchAll(LEVEL_LINK)) if (missing(Number(match[1]))) fault(path, problem(Number(match[1])));
  }
}
