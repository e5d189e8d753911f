import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ProgressState } from 'src/contracts/progress';
import { ProgressCountRepository } from '../../domain/progress-count-repository.port';

@Injectable()
export class MikroOrmProgressCountRepository extends ProgressCountRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async record(level: number, voterHash: string, state: ProgressState, at: Date): Promise<void> {
    if (state === 'none') {
      await this.em.execute(`delete from progress_marks where level_number = ? and voter_hash = ?`, [level, voterHash]);
      return;
    }
    await this.em.execute(
      `insert into progress_marks (level_number, voter_hash, state, updated_at) values (?, ?, ?, ?)
       on conflict (level_number, voter_hash) do update set state = excluded.state, updated_at = excluded.updated_at`,
      [level, voterHash, state, at],
    );
  }

  async recordStops(level: number, voterHash: string, state: ProgressState, ladders: Record<string, number>, at: Date): Promise<void> {
    if (state === 'none') {
      await this.em.execute(`delete from ladder_stops where level_number = ? and voter_hash = ?`, [level, voterHash]);
      return;
    }
    for (const [ladder, revealed] of Object.entries(ladders)) {
      await this.em.execute(
        `insert into ladder_stops (level_number, ladder, voter_hash, revealed, state, updated_at) values (?, ?, ?, ?, ?, ?)
         on conflict (level_number, ladder, voter_hash) do update set revealed = excluded.revealed, state = excluded.state, updated_at = excluded.updated_at`,
        [level, ladder, voterHash, revealed, state, at],
      );
    }
  }
}
