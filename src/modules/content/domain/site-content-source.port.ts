import type { ContentFile } from 'src/platform/content/content-file';

export abstract class SiteContentSource {
  abstract pageFiles(): Promise<ContentFile[]>;
  abstract postFiles(): Promise<ContentFile[]>;
  /** content/media.yaml, or null when there is none. */
  abstract mediaFile(): Promise<ContentFile | null>;
}
