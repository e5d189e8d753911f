import { Logger } from '@nestjs/common';
import { InvalidCredentialsError, InvalidLinkError } from '../domain/auth.errors';
import { ago, authTestBed, type AuthTestBed, IP, PASSWORD, tokenFrom } from './auth.test-fixtures';

describe('AuthService', () => {
  let users: AuthTestBed['users'];
  let sessions: AuthTestBed['sessions'];
  let tokens: AuthTestBed['tokens'];
  let jobs: AuthTestBed['jobs'];
  let service: AuthTestBed['service'];
  let sessionsAuth: AuthTestBed['sessionsAuth'];
  let confirmedUser: AuthTestBed['confirmedUser'];

  beforeEach(() => {
    const bed = authTestBed();
    expect(bed.redis.client).toBeUndefined();
    ({ users, sessions, tokens, jobs, service, sessionsAuth, confirmedUser } = bed);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  describe('password reset', () => {
    it('revokes every session of the user, sets a new hash, and signs no one in', async () => {
      const user = await confirmedUser();
      const other = await confirmedUser('other@example.com');
      const first = await service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const second = await service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const bystander = await service.signIn({ email: 'other@example.com', password: PASSWORD }, IP);
      const oldHash = users.row('player@example.com').passwordHash;

      await service.requestPasswordReset('Player@Example.com');
      const mail = jobs.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      const token = tokenFrom(mail.text, '/auth/password_reset');
      const sessionsBefore = sessions.rows.size;

      const result = await service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });

      expect(result).toBeUndefined();
      expect(sessions.rows.size).toBe(sessionsBefore); // no session started
      expect(sessions.ofUser(user.id).every((s) => s.revokedAt !== null)).toBe(true);
      expect(sessions.ofUser(user.id)).toHaveLength(2);
      await expect(sessionsAuth.authenticate(first.token)).resolves.toBeNull();
      await expect(sessionsAuth.authenticate(second.token)).resolves.toBeNull();
      await expect(sessionsAuth.authenticate(bystander.token)).resolves.toMatchObject({ user: { id: other.id } });

      const newHash = users.row('player@example.com').passwordHash!;
      expect(newHash).not.toBe(oldHash);
      expect(newHash).toMatch(/^\$argon2id\$/);
      await expect(service.signIn({ email: 'player@example.com', password: PASSWORD }, IP)).rejects.toThrow(InvalidCredentialsError);
      await expect(service.signIn({ email: 'player@example.com', password: 'a new password' }, IP)).resolves.toMatchObject({
        user: { id: user.id },
      });

      // The link works once.
      await expect(service.resetPassword({ token, password: 'third password', password_confirmation: 'third password' })).rejects.toThrow(
        InvalidLinkError,
      );
    });

    it('confirms the address of an unconfirmed account', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.requestPasswordReset('player@example.com');
      const token = tokenFrom(jobs.mails()[1]!.text, '/auth/password_reset');

      await service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });
      expect(users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
    });

    it('mails nothing for an unknown address and refuses a bad or expired link', async () => {
      await service.requestPasswordReset('nobody@example.com');
      expect(jobs.sent).toHaveLength(0);

      await expect(service.resetPassword({ token: '', password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(tokens.consumeCalls).toBe(0);

      await confirmedUser();
      await service.requestPasswordReset('player@example.com');
      const token = tokenFrom(jobs.mails()[0]!.text, '/auth/password_reset');
      tokens.row(token).expiresAt = ago(1);
      const hash = users.row('player@example.com').passwordHash;
      await expect(service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(users.row('player@example.com').passwordHash).toBe(hash);
    });
  });
});
