import { ContentFileError, readContentFile, type ContentFile } from 'src/platform/content/content-file';
import type { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import type { LevelGuide } from '../domain/level';
import { levelFileSchema } from './level-file.schema';

/** Reads one guide file: front matter checked field by field, Markdown rendered and sanitised. */
export function parseLevelFile(file: ContentFile, markdown: MarkdownRenderer): LevelGuide {
  const fail = (field: string, problem: string): never => {
    throw new ContentFileError(file.name, field, problem);
  };
  const { data: f, body, hash } = readContentFile(file, levelFileSchema);
  const fileNumber = /(\d+)\.md$/.exec(file.name)?.[1];
  if (fileNumber !== undefined && Number(fileNumber) !== f.level) {
    fail('level', `is ${f.level} but the file name says ${Number(fileNumber)}`);
  }
  if (f.video) {
    f.steps.forEach((step, i) => {
      if (step.at !== undefined && step.at > f.video!.duration) fail(`steps.${i}.at`, 'is after the end of the video');
    });
  }

  return {
    number: f.level,
    title: f.title,
    difficulty: f.difficulty,
    referenceSeconds: f.time,
    unlocksAt: f.unlocks_at,
    introHtml: body ? markdown.render(body) : '',
    tips: f.tips.map((t) => markdown.renderInline(t)),
    hints: f.hints.map((h) => markdown.renderInline(h)),
    steps: f.steps.map((s) => ({ html: markdown.renderInline(s.text), ...(s.at !== undefined ? { atSeconds: s.at } : {}) })),
    video: f.video
      ? { youtubeId: f.video.youtube_id, title: f.video.title, durationSeconds: f.video.duration, sample: f.video.sample }
      : undefined,
    gameVersion: f.game_version,
    verifiedOn: f.verified,
    searchText: [f.title, body, ...f.tips, ...f.steps.map((s) => s.text)].map((t) => markdown.toPlainText(t)).join('\n'),
    sourceHash: hash,
  };
}
