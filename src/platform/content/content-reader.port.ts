import type { ContentFile } from './content-file';

/** Files a kind reads under the content root: the '*.md' of a folder (and its subfolders when recursive), or one file. */
export type ContentSource = { folder: string; recursive?: boolean } | { file: string };

/** Reads the files of a kind, in a stable order (names relative to the content root). */
export abstract class ContentReader {
  abstract read(sources: readonly ContentSource[]): Promise<ContentFile[]>;
}
