import { Logger } from '@nestjs/common';
import { InvalidLinkError } from '../domain/auth.errors';
import { hashSecret } from '../domain/secrets';
import { ago, authTestBed, type AuthTestBed, DAY, PASSWORD } from './auth.test-fixtures';

describe('AuthService', () => {
  let users: AuthTestBed['users'];
  let sessions: AuthTestBed['sessions'];
  let hasher: AuthTestBed['hasher'];
  let jobs: AuthTestBed['jobs'];
  let service: AuthTestBed['service'];
  let sessionsAuth: AuthTestBed['sessionsAuth'];
  let confirmedUser: AuthTestBed['confirmedUser'];

  beforeEach(() => {
    const bed = authTestBed();
    expect(bed.redis.client).toBeUndefined();
    ({ users, sessions, hasher, jobs, service, sessionsAuth, confirmedUser } = bed);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  describe('signInWithGoogle', () => {
    it('signs in the account linked to the Google subject', async () => {
      const user = await confirmedUser();
      await users.update(user.id, { googleSubject: 'google-sub-1' });

      // The subject decides, whatever email Google reports now.
      const result = await service.signInWithGoogle({ subject: 'google-sub-1', email: 'renamed@example.com', emailVerified: false });
      expect(result.user.id).toBe(user.id);
      expect(result.session.userId).toBe(user.id);
      expect(result.session.tokenHash).toBe(hashSecret(result.token));
      expect(users.rows.size).toBe(1);
    });

    it('links an existing account by its verified email, confirming it', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const user = users.row('player@example.com');
      expect(user.confirmedAt).toBeNull();

      const result = await service.signInWithGoogle({ subject: 'google-sub-2', email: 'Player@Example.com', emailVerified: true });

      expect(users.rows.size).toBe(1);
      expect(result.user).toMatchObject({ id: user.id, googleSubject: 'google-sub-2' });
      expect(result.user.confirmedAt).toBeInstanceOf(Date);
      expect(users.row('player@example.com')).toMatchObject({ googleSubject: 'google-sub-2' });
      expect(users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
      // Whoever chose the password of an unconfirmed account was never proven to own the address.
      expect(users.row('player@example.com').passwordHash).toBeNull();
      await expect(sessionsAuth.authenticate(result.token)).resolves.toMatchObject({ user: { id: user.id } });
    });

    it('keeps the original confirmation date when linking a confirmed account', async () => {
      const user = await confirmedUser();
      const confirmedAt = ago(7 * DAY);
      users.row('player@example.com').confirmedAt = confirmedAt;

      await service.signInWithGoogle({ subject: 'google-sub-3', email: 'player@example.com', emailVerified: true });
      expect(users.row('player@example.com')).toMatchObject({ id: user.id, confirmedAt, googleSubject: 'google-sub-3' });
    });

    it('refuses an unverified (or missing) email: it never takes over an account', async () => {
      const user = await confirmedUser();

      await expect(service.signInWithGoogle({ subject: 'attacker', email: 'player@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );
      await expect(service.signInWithGoogle({ subject: 'attacker', emailVerified: true })).rejects.toThrow(InvalidLinkError);
      await expect(service.signInWithGoogle({ subject: 'attacker', email: 'new@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );

      expect(users.row('player@example.com')).toEqual(user);
      expect(users.rows.size).toBe(1);
      expect(sessions.rows.size).toBe(0);
    });

    it('creates a confirmed account without a password otherwise', async () => {
      const result = await service.signInWithGoogle({ subject: 'google-sub-4', email: ' Fresh@Example.com', emailVerified: true });

      expect(users.rows.size).toBe(1);
      const user = users.row('fresh@example.com');
      expect(user).toMatchObject({ id: result.user.id, passwordHash: null, googleSubject: 'google-sub-4' });
      expect(user.confirmedAt).toBeInstanceOf(Date);
      expect(result.session.userId).toBe(user.id);
      expect(hasher.calls.hash).toBe(0);
      expect(jobs.sent).toHaveLength(0);

      // Next time the subject finds it.
      const again = await service.signInWithGoogle({ subject: 'google-sub-4', email: 'fresh@example.com', emailVerified: true });
      expect(again.user.id).toBe(user.id);
      expect(users.rows.size).toBe(1);
    });
  });
});
