import type { User } from './user';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  abstract findByGoogleSubject(subject: string): Promise<User | null>;
  /** Creates the user; null when the email is already taken (a concurrent sign-up won). */
  abstract create(user: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null>;
  abstract update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void>;
  /** The account confirmed first (the local try-out's admin), or null while none is. */
  abstract firstConfirmedId(): Promise<string | null>;
  /** id -> email of these accounts. */
  abstract emailsOf(ids: string[]): Promise<Map<string, string>>;
}
