import type { ContentFile } from './content-file';

/**
 * Files a kind reads under the content root: the '*.md' of a folder (and its subfolders when
 * recursive), or one file. `assets`: extensions of binary files read too, from the folder and its
 * subfolders (a guide's pictures), as bytes.
 */
export type ContentSource = { folder: string; recursive?: boolean; assets?: readonly string[] } | { file: string };

/** Reads the files of a kind, in a stable order (names relative to the content root). */
export abstract class ContentReader {
  abstract read(sources: readonly ContentSource[]): Promise<ContentFile[]>;
}
