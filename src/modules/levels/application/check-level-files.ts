import type { ContentFault, ContentFile } from 'src/platform/content/content-file';
import type { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import type { LevelGuide, PictureSource } from '../domain/level';
import { checkLevelFile } from './check-level-file';

/** The content of content/levels as read by the ContentReader: the guide files and their pictures. */
export interface CheckedLevelFiles {
  guides: LevelGuide[];
  pictures: PictureSource[];
  /** Every fault of every file, in file order: the import refuses all on any. */
  faults: { file: string; fault: ContentFault }[];
}

/** Checks every guide file with what lies beside it (pictures, the other guides for links) and the numbers across files. */
export function checkLevelFiles(files: ContentFile[], markdown: MarkdownRenderer): CheckedLevelFiles {
  const guideFiles = files.filter((file) => !file.bytes);
  const assets = new Map(files.filter((file) => file.bytes).map((file) => [file.name, file.bytes!]));
  const numbers = new Set(guideFiles.map((file) => Number(/(\d+)\.md$/.exec(file.name)?.[1])).filter(Number.isInteger));
  const result: CheckedLevelFiles = { guides: [], pictures: [], faults: [] };
  const seen = new Map<number, string>();
  const pictures = new Map<string, PictureSource>();
  for (const file of guideFiles) {
    const checked = checkLevelFile(file, { markdown, assets, guides: numbers });
    result.faults.push(...checked.faults.map((fault) => ({ file: file.name, fault })));
    checked.pictures.forEach((picture) => pictures.set(picture.hash, picture));
    if (!checked.guide) continue;
    const other = seen.get(checked.guide.number);
    if (other) result.faults.push({ file: file.name, fault: { field: 'level', line: 2, problem: `${checked.guide.number} is also in ${other}` } });
    seen.set(checked.guide.number, file.name);
    result.guides.push(checked.guide);
  }
  result.pictures = [...pictures.values()];
  return result;
}
