import type { ProgressLevels } from 'src/contracts/progress';
import { AccountProgressRepository, type AccountProgress } from '../domain/account-progress-repository.port';

const NOTHING: AccountProgress = { levels: {}, clearedAt: null, revision: 0, changedIn: {} };

/**
 * Accounts' progress in memory, for specs: one merge at a time per account, as the SQL's row lock
 * makes it; a merge that changes marks counts one revision and records it on each changed level.
 */
export class InMemoryAccountProgressRepository extends AccountProgressRepository {
  readonly rows = new Map<string, AccountProgress>();

  async update(userId: string, merge: (current: AccountProgress) => ProgressLevels): Promise<AccountProgress> {
    const current = await this.read(userId);
    const levels = merge(current);
    const changed = Object.keys(levels).filter((level) => JSON.stringify(levels[Number(level)]) !== JSON.stringify(current.levels[Number(level)]));
    const revision = changed.length ? current.revision + 1 : current.revision;
    const next = { ...current, levels, revision, changedIn: { ...current.changedIn, ...Object.fromEntries(changed.map((level) => [level, revision])) } };
    this.rows.set(userId, next);
    return structuredClone(next);
  }

  async read(userId: string): Promise<AccountProgress> {
    return structuredClone(this.rows.get(userId) ?? NOTHING);
  }

  async clear(userId: string, at: Date): Promise<void> {
    this.rows.set(userId, { ...(this.rows.get(userId) ?? NOTHING), levels: {}, clearedAt: at.getTime() });
  }
}
