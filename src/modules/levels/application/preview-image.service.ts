import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { LevelRepository } from '../domain/level-repository.port';
import { PreviewImageRenderer } from '../domain/preview-image-renderer.port';

const MAX_CACHED = 200;

/** Social preview PNGs: one per level with a guide, and the site's default. Rendered once, kept in memory. */
@Injectable()
export class PreviewImageService {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly renderer: PreviewImageRenderer,
    private readonly levels: LevelRepository,
    private readonly config: AppConfig,
  ) {}

  /** Null when the level has no published guide. */
  async forLevel(number: number): Promise<Buffer | null> {
    const level = await this.levels.findPublished(number);
    if (!level) return null;
    return this.cached(`level:${number}:${level.difficulty}`, () =>
      this.renderer.render({ heading: `Level ${number}`, difficulty: level.difficulty, ...this.identity() }),
    );
  }

  default(): Promise<Buffer> {
    return this.cached('default', () => this.renderer.render({ heading: 'Level guides', ...this.identity() }));
  }

  private identity() {
    return { gameName: this.config.public.gameName, siteName: this.config.public.siteName };
  }

  private cached(key: string, render: () => Promise<Buffer>): Promise<Buffer> {
    let image = this.cache.get(key);
    if (!image) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      image = render();
      image.catch(() => this.cache.delete(key));
      this.cache.set(key, image);
    }
    return image;
  }
}
