import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { AppConfig } from 'src/config/app-config';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { ContentImportBootstrap } from './adapters/content/content-import.bootstrap';
import { FileLevelContentSource } from './adapters/content/file-level-content-source.adapter';
import { LevelsApiController } from './adapters/http/levels-api.controller';
import { PreviewImageController } from './adapters/http/preview-image.controller';
import { SharpPreviewImageRenderer } from './adapters/images/sharp-preview-image-renderer.adapter';
import { ContentImportSchema } from 'src/platform/content/content-import.entity';
import { GuideFeedbackSchema, GuideRequestSchema, LevelSchema } from './adapters/persistence/level.entities';
import { MikroOrmGuideVoteRepository } from './adapters/persistence/mikro-orm-guide-vote-repository.adapter';
import { MikroOrmLevelRepository } from './adapters/persistence/mikro-orm-level-repository.adapter';
import { ContentImportService } from './application/content-import.service';
import { LevelsService } from './application/levels.service';
import { PreviewImageService } from './application/preview-image.service';
import { PreviewImageRenderer } from './domain/preview-image-renderer.port';
import { GuideVoteRepository } from './domain/guide-vote-repository.port';
import { LevelContentSource } from './domain/level-content-source.port';
import { LevelRepository } from './domain/level-repository.port';

/** Level guides: content import, the read side for pages and the API, guide requests and feedback. */
@Module({
  imports: [MikroOrmModule.forFeature([LevelSchema, GuideRequestSchema, GuideFeedbackSchema, ContentImportSchema]), AuthGuardsModule],
  controllers: [LevelsApiController, PreviewImageController],
  providers: [
    LevelsService,
    ContentImportService,
    ContentImportBootstrap,
    PreviewImageService,
    { provide: PreviewImageRenderer, useClass: SharpPreviewImageRenderer },
    { provide: LevelRepository, useClass: MikroOrmLevelRepository },
    { provide: GuideVoteRepository, useClass: MikroOrmGuideVoteRepository },
    { provide: MarkdownRenderer, useClass: MarkdownItRenderer },
    { provide: LevelContentSource, inject: [AppConfig], useFactory: (c: AppConfig) => new FileLevelContentSource(c.content.dir) },
  ],
  exports: [LevelsService, ContentImportService],
})
export class LevelsModule {}
