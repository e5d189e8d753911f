import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { ContentImportLog } from './content-import-log.port';
import { ContentImportSchema } from './content-import.entity';

/** Reads content_imports (each kind's sync writes its row in the import's transaction). */
@Injectable()
export class MikroOrmContentImportLog extends ContentImportLog {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lastHash(kind: string): Promise<string | null> {
    const row = await this.em.findOne(ContentImportSchema, { kind });
    return row?.contentHash ?? null;
  }
}
