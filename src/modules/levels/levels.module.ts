import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { GuidePictureController } from './adapters/http/guide-picture.controller';
import { LevelsApiController } from './adapters/http/levels-api.controller';
import { LevelsFeedController } from './adapters/http/levels-feed.controller';
import { PreviewImageController } from './adapters/http/preview-image.controller';
import { SharpPictureEncoder } from './adapters/images/sharp-picture-encoder.adapter';
import { SharpPreviewImageRenderer } from './adapters/images/sharp-preview-image-renderer.adapter';
import { LevelsPageData } from './adapters/pages/levels.pages';
import { LevelsSitemap } from './adapters/pages/levels.sitemap';
import { ContentImportModule } from 'src/platform/content/content-import.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { GuideFeedbackSchema, GuidePictureSchema, GuideRequestSchema, LevelSchema } from './adapters/persistence/level.entities';
import { MikroOrmGuidePictureStore } from './adapters/persistence/mikro-orm-guide-picture-store.adapter';
import { MikroOrmGuideVoteRepository } from './adapters/persistence/mikro-orm-guide-vote-repository.adapter';
import { MikroOrmLevelRepository } from './adapters/persistence/mikro-orm-level-repository.adapter';
import { LevelContentKind } from './application/level-content.kind';
import { LevelsService } from './application/levels.service';
import { PreviewImageService } from './application/preview-image.service';
import { PreviewImageRenderer } from './domain/preview-image-renderer.port';
import { GuidePictureStore, PictureEncoder } from './domain/guide-picture.port';
import { GuideVoteRepository } from './domain/guide-vote-repository.port';
import { LevelRepository } from './domain/level-repository.port';

/** Level guides: their kind of content (imported by the ContentImporter), the read side for pages (their page data section, sitemap entries and feed) and the API, guide requests and feedback. */
@Module({
  imports: [MikroOrmModule.forFeature([LevelSchema, GuideRequestSchema, GuideFeedbackSchema, GuidePictureSchema]), ContentImportModule, AuthGuardsModule, PagesModule],
  controllers: [LevelsApiController, PreviewImageController, LevelsFeedController, GuidePictureController],
  providers: [
    LevelsService,
    LevelContentKind,
    PreviewImageService,
    LevelsPageData,
    LevelsSitemap,
    { provide: PreviewImageRenderer, useClass: SharpPreviewImageRenderer },
    { provide: LevelRepository, useClass: MikroOrmLevelRepository },
    { provide: GuideVoteRepository, useClass: MikroOrmGuideVoteRepository },
    { provide: GuidePictureStore, useClass: MikroOrmGuidePictureStore },
    { provide: PictureEncoder, useClass: SharpPictureEncoder },
    { provide: MarkdownRenderer, useClass: MarkdownItRenderer },
  ],
  exports: [LevelsService],
})
export class LevelsModule {}
