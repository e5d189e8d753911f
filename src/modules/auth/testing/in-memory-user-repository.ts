import { randomUUID } from 'node:crypto';
import type { User } from '../domain/user';
import { UserRepository } from '../domain/user-repository.port';

/**
 * Accounts in memory, for specs: one account per address (create answers null for a taken one),
 * copies handed out as a database would. The SQL adapter is proven by test/auth.e2e-spec.ts.
 */
export class InMemoryUserRepository extends UserRepository {
  readonly rows = new Map<string, User>();

  async findById(id: string): Promise<User | null> {
    const user = this.rows.get(id);
    return user ? { ...user } : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const user = [...this.rows.values()].find((u) => u.email === email);
    return user ? { ...user } : null;
  }

  async findByGoogleSubject(subject: string): Promise<User | null> {
    const user = [...this.rows.values()].find((u) => u.googleSubject === subject);
    return user ? { ...user } : null;
  }

  async create(data: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null> {
    if ([...this.rows.values()].some((u) => u.email === data.email)) return null;
    const user: User = { id: randomUUID(), createdAt: new Date(), ...data };
    this.rows.set(user.id, user);
    return { ...user };
  }

  async update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void> {
    const user = this.rows.get(id);
    if (user) Object.assign(user, changes);
  }

  async firstConfirmedId(): Promise<string | null> {
    const confirmed = [...this.rows.values()].filter((u) => u.confirmedAt).sort((a, b) => a.confirmedAt!.getTime() - b.confirmedAt!.getTime());
    return confirmed[0]?.id ?? null;
  }

  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!.email] as const] : [])));
  }

  /** The stored row (not a copy), for assertions and for arranging a test. */
  row(email: string): User {
    const user = [...this.rows.values()].find((u) => u.email === email);
    if (!user) throw new Error(`no user ${email}`);
    return user;
  }
}
