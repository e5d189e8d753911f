import { InvalidLinkError } from '../domain/auth.errors';
import { hashSecret } from '../domain/secrets';
import { ago, useAuthTestBed, DAY, PASSWORD } from '../testing/auth-test-bed';

describe('AuthService', () => {
  const bed = useAuthTestBed();

  describe('signInWithGoogle', () => {
    it('signs in the account linked to the Google subject', async () => {
      const user = await bed.confirmedUser();
      await bed.users.update(user.id, { googleSubject: 'google-sub-1' });

      // The subject decides, whatever email Google reports now.
      const result = await bed.service.signInWithGoogle({ subject: 'google-sub-1', email: 'renamed@example.com', emailVerified: false });
      expect(result.user.id).toBe(user.id);
      expect(result.session.userId).toBe(user.id);
      expect(result.session.tokenHash).toBe(hashSecret(result.token));
      expect(bed.users.rows.size).toBe(1);
    });

    it('links an existing account by its verified email, confirming it', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const user = bed.users.row('player@example.com');
      expect(user.confirmedAt).toBeNull();

      const result = await bed.service.signInWithGoogle({ subject: 'google-sub-2', email: 'Player@Example.com', emailVerified: true });

      expect(bed.users.rows.size).toBe(1);
      expect(result.user).toMatchObject({ id: user.id, googleSubject: 'google-sub-2' });
      expect(result.user.confirmedAt).toBeInstanceOf(Date);
      expect(bed.users.row('player@example.com')).toMatchObject({ googleSubject: 'google-sub-2' });
      expect(bed.users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
      // Whoever chose the password of an unconfirmed account was never proven to own the address.
      expect(bed.users.row('player@example.com').passwordHash).toBeNull();
      await expect(bed.sessionsAuth.authenticate(result.token)).resolves.toMatchObject({ user: { id: user.id } });
    });

    it('keeps the original confirmation date when linking a confirmed account', async () => {
      const user = await bed.confirmedUser();
      const confirmedAt = ago(7 * DAY);
      bed.users.row('player@example.com').confirmedAt = confirmedAt;

      await bed.service.signInWithGoogle({ subject: 'google-sub-3', email: 'player@example.com', emailVerified: true });
      expect(bed.users.row('player@example.com')).toMatchObject({ id: user.id, confirmedAt, googleSubject: 'google-sub-3' });
    });

    it('refuses an unverified (or missing) email: it never takes over an account', async () => {
      const user = await bed.confirmedUser();

      await expect(bed.service.signInWithGoogle({ subject: 'attacker', email: 'player@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );
      await expect(bed.service.signInWithGoogle({ subject: 'attacker', emailVerified: true })).rejects.toThrow(InvalidLinkError);
      await expect(bed.service.signInWithGoogle({ subject: 'attacker', email: 'new@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );

      expect(bed.users.row('player@example.com')).toEqual(user);
      expect(bed.users.rows.size).toBe(1);
      expect(bed.sessions.rows.size).toBe(0);
    });

    it('creates a confirmed account without a password otherwise', async () => {
      const result = await bed.service.signInWithGoogle({ subject: 'google-sub-4', email: ' Fresh@Example.com', emailVerified: true });

      expect(bed.users.rows.size).toBe(1);
      const user = bed.users.row('fresh@example.com');
      expect(user).toMatchObject({ id: result.user.id, passwordHash: null, googleSubject: 'google-sub-4' });
      expect(user.confirmedAt).toBeInstanceOf(Date);
      expect(result.session.userId).toBe(user.id);
      expect(bed.hasher.calls.hash).toBe(0);
      expect(bed.outbox.sent).toHaveLength(0);

      // Next time the subject finds it.
      const again = await bed.service.signInWithGoogle({ subject: 'google-sub-4', email: 'fresh@example.com', emailVerified: true });
      expect(again.user.id).toBe(user.id);
      expect(bed.users.rows.size).toBe(1);
    });
  });
});
