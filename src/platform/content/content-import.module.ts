import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { ContentImportSchema } from './content-import.entity';
import { ContentImportLog } from './content-import-log.port';
import { ContentImporter } from './content-importer';
import { ContentReader } from './content-reader.port';
import { FileContentReader } from './file-content-reader.adapter';
import { MikroOrmContentImportLog } from './mikro-orm-content-import-log.adapter';

/** ContentImporter, one per process: modules with content in content/ register their kind with it. */
@Module({
  imports: [MikroOrmModule.forFeature([ContentImportSchema])],
  providers: [
    ContentImporter,
    { provide: ContentImportLog, useClass: MikroOrmContentImportLog },
    { provide: ContentReader, inject: [AppConfig], useFactory: (c: AppConfig) => new FileContentReader(c.content.dir) },
  ],
  exports: [ContentImporter],
})
export class ContentImportModule {}
