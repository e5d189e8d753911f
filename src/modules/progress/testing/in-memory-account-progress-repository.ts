import type { ProgressLevels } from 'src/contracts/progress';
import { AccountProgressRepository, type AccountProgress } from '../domain/account-progress-repository.port';

/** Accounts' progress in memory, for specs: one merge at a time per account, as the SQL's row lock makes it. */
export class InMemoryAccountProgressRepository extends AccountProgressRepository {
  readonly rows = new Map<string, AccountProgress>();

  async update(userId: string, merge: (current: AccountProgress) => ProgressLevels): Promise<AccountProgress> {
    const current = await this.read(userId);
    const next = { levels: merge(current), clearedAt: current.clearedAt };
    this.rows.set(userId, next);
    return structuredClone(next);
  }

  async read(userId: string): Promise<AccountProgress> {
    return structuredClone(this.rows.get(userId) ?? { levels: {}, clearedAt: null });
  }

  async clear(userId: string, at: Date): Promise<void> {
    this.rows.set(userId, { levels: {}, clearedAt: at.getTime() });
  }
}
