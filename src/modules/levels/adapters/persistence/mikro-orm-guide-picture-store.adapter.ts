import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { GuidePictureStore, type PictureCopy } from '../../domain/guide-picture.port';

// Hash lists go as one JSON parameter: the driver would spread an array into a list, and an empty one into "()".

/** The copies in PostgreSQL: every web process serves them, and an import is the only writer. */
@Injectable()
export class MikroOrmGuidePictureStore extends GuidePictureStore {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async missing(hashes: string[]): Promise<string[]> {
    if (!hashes.length) return [];
    const rows = await this.em.execute<{ hash: string }[]>(`select distinct hash from guide_pictures where hash in (select jsonb_array_elements_text(?::jsonb))`, [JSON.stringify(hashes)]);
    const present = new Set(rows.map((row) => row.hash));
    return hashes.filter((hash) => !present.has(hash));
  }

  async save(copies: PictureCopy[]): Promise<void> {
    for (const copy of copies) {
      await this.em.execute(
        `insert into guide_pictures (file, hash, content_type, bytes, created_at) values (?, ?, ?, ?, now()) on conflict (file) do nothing`,
        [copy.file, copy.hash, copy.contentType, copy.bytes],
      );
    }
  }

  async find(file: string) {
    const [row] = await this.em.execute<{ content_type: PictureCopy['contentType']; bytes: Buffer }[]>(`select content_type, bytes from guide_pictures where file = ?`, [file]);
    return row ? { contentType: row.content_type, bytes: Buffer.from(row.bytes) } : null;
  }

  async keepOnly(hashes: string[]): Promise<number> {
    const rows = await this.em.execute<{ file: string }[]>(`delete from guide_pictures where hash not in (select jsonb_array_elements_text(?::jsonb)) returning file`,
      [JSON.stringify(hashes)],);
    return rows.length;
  }
}
