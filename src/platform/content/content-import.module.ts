import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { EntityManager } from '@mikro-orm/postgresql';
import { ContentChangeFeed, LocalContentChangeFeed } from './content-change-feed.port';
import { ContentDocuments } from './content-documents';
import { ContentImportSchema } from './content-import.entity';
import { ContentImportLog } from './content-import-log.port';
import { ContentImporter } from './content-importer';
import { ContentReader } from './content-reader.port';
import { FileContentReader } from './file-content-reader.adapter';
import { MikroOrmContentImportLog } from './mikro-orm-content-import-log.adapter';
import { PostgresContentChangeFeed } from './postgres-content-change-feed.adapter';

/**
 * ContentImporter, one per process: modules with content in content/ register their kind with it.
 * Its changes reach every process's subscribers (the page caches) through the ContentChangeFeed.
 * ContentDocuments keeps what is built from the content (feeds, sitemap) until it changes.
 */
@Module({
  imports: [MikroOrmModule.forFeature([ContentImportSchema])],
  providers: [
    ContentImporter,
    ContentDocuments,
    { provide: ContentImportLog, useClass: MikroOrmContentImportLog },
    { provide: ContentReader, inject: [AppConfig], useFactory: (c: AppConfig) => new FileContentReader(c.content.dir) },
    {
      provide: ContentChangeFeed,
      inject: [AppConfig, EntityManager],
      useFactory: (c: AppConfig, em: EntityManager) => (c.database.kind === 'postgres' ? new PostgresContentChangeFeed(c.database.url, em) : new LocalContentChangeFeed()),
    },
  ],
  exports: [ContentImporter, ContentDocuments],
})
export class ContentImportModule {}
