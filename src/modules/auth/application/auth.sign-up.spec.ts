import * as argon2 from 'argon2';
import { InvalidLinkError, LoginDisabledError } from '../domain/auth.errors';
import { hashSecret } from '../domain/secrets';
import { ago, authTestBed, useAuthTestBed, IP, PASSWORD, tokenFrom } from '../testing/auth-test-bed';

describe('AuthService', () => {
  const bed = useAuthTestBed();

  it('refuses every email action while accounts, or email sign-in, are off (Google only), before it counts or mails anything', async () => {
    const actions = (off: ReturnType<typeof authTestBed>) => [
      off.service.signUp({ email: 'a@example.com', password: PASSWORD, password_confirmation: PASSWORD }),
      off.service.resendConfirmation('a@example.com'),
      off.service.signIn({ email: 'a@example.com', password: PASSWORD }, IP),
      off.service.requestSignInLink('a@example.com'),
      off.service.signInWithLink('x'.repeat(43)),
      off.service.requestPasswordReset('a@example.com'),
      off.service.resetPassword({ token: 'x'.repeat(43), password: PASSWORD, password_confirmation: PASSWORD }),
    ];
    for (const env of [{ HAS_LOGIN: 'false' }, { EMAIL_LOGIN: 'false' }] as Record<string, string>[]) {
      const off = authTestBed(env);
      for (const action of actions(off)) await expect(action).rejects.toBeInstanceOf(LoginDisabledError);
      expect(off.outbox.sent).toEqual([]);
    }
    // Confirming an address needs accounts on, not email sign-in.
    await expect(authTestBed({ HAS_LOGIN: 'false' }).service.confirmEmail('x'.repeat(43))).rejects.toBeInstanceOf(LoginDisabledError);
    await expect(authTestBed({ EMAIL_LOGIN: 'false' }).service.confirmEmail('x'.repeat(43))).rejects.toBeInstanceOf(InvalidLinkError);
  });

  describe('signUp', () => {
    it('stores a lower-cased email and an argon2id hash, never the password, and mails one confirmation link', async () => {
      await bed.service.signUp({ email: '  Player@Example.COM ', password: PASSWORD, password_confirmation: PASSWORD });

      expect(bed.users.rows.size).toBe(1);
      const user = bed.users.row('player@example.com');
      expect(user.confirmedAt).toBeNull();
      expect(user.googleSubject).toBeNull();
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user.passwordHash).not.toContain(PASSWORD);
      expect(JSON.stringify([...bed.users.rows.values()])).not.toContain(PASSWORD);
      await expect(argon2.verify(user.passwordHash!, PASSWORD)).resolves.toBe(true);
      expect(bed.hasher.calls.hash).toBe(1);

      expect(bed.outbox.sent).toHaveLength(1);
      const mail = bed.outbox.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      expect(mail.text).toContain(`${bed.config.http.publicUrl}/auth/confirm#token=`);
      const token = tokenFrom(mail.text, '/auth/confirm');

      // The link's token is stored only as its hash, for this user and purpose.
      expect(bed.tokens.rows).toHaveLength(1);
      expect(bed.tokens.rows[0]).toMatchObject({ userId: user.id, purpose: 'account_confirm', tokenHash: hashSecret(token), usedAt: null });
      expect(JSON.stringify(bed.tokens.rows)).not.toContain(token);
    });

    it('mails "already have an account" to an existing confirmed address, creates nothing, and costs the same hash as a new one', async () => {
      const existing = await bed.confirmedUser('player@example.com');
      const before = { users: bed.users.rows.size, tokens: bed.tokens.rows.length, hashes: bed.hasher.calls.hash };

      await bed.service.signUp({ email: 'PLAYER@example.com', password: 'another password', password_confirmation: 'another password' });

      expect(bed.users.rows.size).toBe(before.users);
      expect(bed.tokens.rows).toHaveLength(before.tokens);
      // One argon2 hash like a new address: the answer's timing does not tell that the address is taken.
      expect(bed.hasher.calls.hash).toBe(before.hashes + 1);
      expect(bed.users.row('player@example.com')).toEqual(existing); // password unchanged
      expect(bed.outbox.sent).toHaveLength(1);
      const mail = bed.outbox.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      expect(mail.subject).toMatch(/already have an? .*account/);
      expect(mail.text).toContain('already has an account');
      expect(mail.text).toContain(`${bed.config.http.publicUrl}/auth/forgot_password`);
      expect(mail.text).not.toContain('#token=');
    });

    it('sends a new confirmation link instead to an existing unconfirmed address', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });

      expect(bed.users.rows.size).toBe(1);
      expect(bed.outbox.mails()).toHaveLength(2);
      expect(tokenFrom(bed.outbox.mails()[1]!.text, '/auth/confirm')).not.toBe(tokenFrom(bed.outbox.mails()[0]!.text, '/auth/confirm'));
    });
  });

  describe('confirmation announcements (the credits module grants the trial on them)', () => {
    it('announces each account once: by its link, by Google (new or taking over an unconfirmed one), by a reset', async () => {
      const byLink = await bed.confirmedUser('link@example.com');
      expect(bed.confirmedIds).toEqual([byLink.id]);

      await bed.service.signInWithGoogle({ subject: 'g-new', email: 'new@example.com', emailVerified: true });
      expect(bed.confirmedIds).toEqual([byLink.id, bed.users.row('new@example.com').id]);

      await bed.service.signUp({ email: 'taken@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await bed.service.signInWithGoogle({ subject: 'g-taken', email: 'taken@example.com', emailVerified: true });
      expect(bed.confirmedIds.at(-1)).toBe(bed.users.row('taken@example.com').id);

      await bed.service.signUp({ email: 'reset@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await bed.service.requestPasswordReset('reset@example.com');
      await bed.service.resetPassword({ token: tokenFrom(bed.outbox.mails().at(-1)!.text, '/auth/password_reset'), password: 'another password', password_confirmation: 'another password' });
      expect(bed.confirmedIds.at(-1)).toBe(bed.users.row('reset@example.com').id);
      expect(bed.confirmedIds).toHaveLength(4);
    });

    it('does not announce an account that was already confirmed (Google linking, a second sign-in, a reset)', async () => {
      await bed.confirmedUser('known@example.com');
      await bed.service.signInWithGoogle({ subject: 'g-known', email: 'known@example.com', emailVerified: true });
      await bed.service.signInWithGoogle({ subject: 'g-known', email: 'known@example.com', emailVerified: true });
      await bed.service.requestPasswordReset('known@example.com');
      await bed.service.resetPassword({ token: tokenFrom(bed.outbox.mails().at(-1)!.text, '/auth/password_reset'), password: 'another password', password_confirmation: 'another password' });
      expect(bed.confirmedIds).toHaveLength(1);
    });
  });

  describe('confirmEmail', () => {
    it('confirms once; the second use of the link is refused', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const token = tokenFrom(bed.outbox.mails()[0]!.text, '/auth/confirm');

      await bed.service.confirmEmail(token);
      expect(bed.users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
      await expect(bed.service.signIn({ email: 'player@example.com', password: PASSWORD }, IP)).resolves.toMatchObject({
        user: { email: 'player@example.com' },
      });

      await expect(bed.service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      await expect(bed.service.confirmEmail(token)).rejects.toThrow('This link is invalid or has expired.');
    });

    it.each([
      ['blank', ''],
      ['garbage', 'garbage'],
      ['almost a token', `${'a'.repeat(42)}!`],
      ['too long', 'a'.repeat(44)],
      ['not a string', undefined as unknown as string],
    ])('refuses a %s token without touching the repository', async (_label, token) => {
      await expect(bed.service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      expect(bed.tokens.consumeCalls).toBe(0);
    });

    it('refuses a well-formed token that was never issued', async () => {
      await expect(bed.service.confirmEmail('A'.repeat(43))).rejects.toThrow(InvalidLinkError);
      expect(bed.tokens.consumeCalls).toBe(1);
    });

    it('refuses an expired link and leaves the account unconfirmed', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const token = tokenFrom(bed.outbox.mails()[0]!.text, '/auth/confirm');
      bed.tokens.row(token).expiresAt = ago(1_000);

      await expect(bed.service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      expect(bed.users.row('player@example.com').confirmedAt).toBeNull();
    });

    it('does not accept a password reset link as a confirmation link', async () => {
      await bed.service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await bed.service.requestPasswordReset('player@example.com');
      const reset = tokenFrom(bed.outbox.mails()[1]!.text, '/auth/password_reset');

      await expect(bed.service.confirmEmail(reset)).rejects.toThrow(InvalidLinkError);
      expect(bed.users.row('player@example.com').confirmedAt).toBeNull();
    });
  });
});
