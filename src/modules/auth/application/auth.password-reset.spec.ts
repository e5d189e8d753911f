import { InvalidCredentialsError, InvalidLinkError } from '../domain/auth.errors';
import { ago, useAuthTestBed, IP, PASSWORD, tokenFrom } from '../testing/auth-test-bed';

describe('AuthService', () => {
  const bed = useAuthTestBed();

  describe('password reset', () => {
    it('revokes every session of the user, sets a new hash, and signs no one in', async () => {
      const user = await bed.confirmedUser();
      const other = await bed.confirmedUser('other@example.com');
      const first = await bed.service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const second = await bed.service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const bystander = await bed.service.signIn({ email: 'other@example.com', password: PASSWORD }, IP);
      const oldHash = bed.users.row('player@example.com').passwordHash;

      await bed.service.requestPasswordReset('Player@Example.com');
      const mail = bed.outbox.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      const token = tokenFrom(mail.text, '/auth/password_reset');
      const sessionsBefore = bed.sessions.rows.size;

      const result = await bed.service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });

      expect(result).toBeUndefined();
      expect(bed.sessions.rows.size).toBe(sessionsBefore); // no session started
      expect(bed.sessions.ofUser(user.id).every((s) => s.revokedAt !== null)).toBe(true);
      expect(bed.sessions.ofUser(user.id)).toHaveLength(2);
      await expect(bed.sessionsAuth.authenticate(first.token)).resolves.toBeNull();
      await expect(bed.sessionsAuth.authenticate(second.token)).resolves.toBeNull();
      await expect(bed.sessionsAuth.authenticate(bystander.token)).resolves.toMatchObject({ user: { id: other.id } });

      const newHash = bed.users.row('player@example.com').passwordHash!;
      expect(newHash).not.toBe(oldHash);
      expect(newHash).toMatch(/^\$argon2id\$/);
      await expect(bed.service.signIn({ email: 'player@example.com', password: PASSWORD }, IP)).rejects.toThrow(InvalidCredentialsError);
      await expect(bed.service.signIn({ email: 'player@example.com', password: 'a new password' }, IP)).resolves.toMatchObject({
        user: { id: user.id },
      });

      // The link works once.
      await expect(bed.service.resetPassword({ token, password: 'third password', password_confirmation: 'third password' })).rejects.toThrow(
        InvalidLinkError,
      );
    });

    it('confirms the address of an unconfirmed account', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await bed.service.requestPasswordReset('player@example.com');
      const token = tokenFrom(bed.outbox.mails()[1]!.text, '/auth/password_reset');

      await bed.service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });
      expect(bed.users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
    });

    it('mails nothing for an unknown address and refuses a bad or expired link', async () => {
      await bed.service.requestPasswordReset('nobody@example.com');
      expect(bed.outbox.sent).toHaveLength(0);

      await expect(bed.service.resetPassword({ token: '', password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(bed.tokens.consumeCalls).toBe(0);

      await bed.confirmedUser();
      await bed.service.requestPasswordReset('player@example.com');
      const token = tokenFrom(bed.outbox.mails()[0]!.text, '/auth/password_reset');
      bed.tokens.row(token).expiresAt = ago(1);
      const hash = bed.users.row('player@example.com').passwordHash;
      await expect(bed.service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(bed.users.row('player@example.com').passwordHash).toBe(hash);
    });
  });
});
