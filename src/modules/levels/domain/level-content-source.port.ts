import type { ContentFile } from 'src/platform/content/content-file';

/** Where the guide files come from (the content/ folder). */
export abstract class LevelContentSource {
  abstract levelFiles(): Promise<ContentFile[]>;
}
