import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { ContentModule } from 'src/modules/content/content.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { SearchWordSchema } from 'src/platform/search/search-word.entity';
import { SearchController } from './adapters/http/search.controller';
import { SearchPageData } from './adapters/pages/search.pages';
import { PgTrgmSpellingLexicon } from './adapters/persistence/pg-trgm-spelling-lexicon.adapter';
import { SearchService } from './application/search.service';
import { SpellingLexicon } from './domain/spelling-lexicon.port';

/**
 * One search over the guides, posts and pages: it asks the levels and content modules for their
 * matches and ranks them together. The lexicon it corrects words with (`search_words`, declared
 * in src/platform/search) is written by those modules' imports; this module only reads it.
 */
@Module({
  imports: [MikroOrmModule.forFeature([SearchWordSchema]), LevelsModule, ContentModule, PagesModule],
  controllers: [SearchController],
  providers: [SearchService, SearchPageData, { provide: SpellingLexicon, useClass: PgTrgmSpellingLexicon }],
})
export class SearchModule {}
