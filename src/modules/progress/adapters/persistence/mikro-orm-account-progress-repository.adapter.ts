import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ProgressLevels, ProgressState } from 'src/contracts/progress';
import { AccountProgressRepository, type AccountProgress } from '../../domain/account-progress-repository.port';

type Executor = Pick<EntityManager, 'execute'>;
/** Rows per insert statement: 4 parameters a row stays far below PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;

@Injectable()
export class MikroOrmAccountProgressRepository extends AccountProgressRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async update(userId: string, merge: (current: AccountProgress) => ProgressLevels): Promise<AccountProgress> {
    return this.em.fork().transactional(async (em) => {
      // The account's reset row is the lock: a second sync or a clear of the same account waits here.
      await em.execute(`insert into account_progress_resets (user_id, cleared_at) values (?, null) on conflict do nothing`, [userId]);
      const current = await this.load(em, userId, true);
      const merged = merge(current);
      const changed = Object.entries(merged).filter(([level, entry]) => {
        const before = current.levels[Number(level)];
        return !before || before.state !== entry.state || before.at !== entry.at;
      });
      if (!changed.length) return { ...current, levels: merged };
      const revision = current.revision + 1;
      for (let i = 0; i < changed.length; i += ROWS_PER_INSERT) {
        const rows = changed.slice(i, i + ROWS_PER_INSERT);
        await em.execute(
          `insert into account_progress (user_id, level_number, state, changed_at, revision) values ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}
           on conflict (user_id, level_number) do update set state = excluded.state, changed_at = excluded.changed_at, revision = excluded.revision`,
          rows.flatMap(([level, entry]) => [userId, Number(level), entry.state, new Date(entry.at), revision]),
        );
      }
      await em.execute(`update account_progress_resets set revision = ? where user_id = ?`, [revision, userId]);
      const changedIn = { ...current.changedIn, ...Object.fromEntries(changed.map(([level]) => [level, revision])) };
      return { levels: merged, clearedAt: current.clearedAt, revision, changedIn };
    });
  }

  read(userId: string): Promise<AccountProgress> {
    return this.load(this.em.fork(), userId, false);
  }

  async clear(userId: string, at: Date): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      await em.execute(
        `insert into account_progress_resets (user_id, cleared_at) values (?, ?) on conflict (user_id) do update set cleared_at = excluded.cleared_at`,
        [userId, at],
      );
      await em.execute(`delete from account_progress where user_id = ?`, [userId]);
    });
  }

  private async load(em: Executor, userId: string, lock: boolean): Promise<AccountProgress> {
    const [reset] = await em.execute<{ cleared_at: Date | null; revision: number }[]>(
      `select cleared_at, revision from account_progress_resets where user_id = ?${lock ? ' for update' : ''}`,
      [userId],
    );
    const rows = await em.execute<{ level_number: number; state: ProgressState; changed_at: Date; revision: number }[]>(
      `select level_number, state, changed_at, revision from account_progress where user_id = ?`,
      [userId],
    );
    const levels: ProgressLevels = {};
    const changedIn: Record<number, number> = {};
    for (const row of rows) {
      levels[row.level_number] = { state: row.state, at: new Date(row.changed_at).getTime() };
      changedIn[row.level_number] = row.revision;
    }
    return { levels, clearedAt: reset?.cleared_at ? new Date(reset.cleared_at).getTime() : null, revision: reset?.revision ?? 0, changedIn };
  }
}
