import { loadConfig } from 'src/config/app-config';
import { hashSecret } from '../domain/secrets';
import { SessionAuthenticator } from './session-authenticator.service';
import { ago, useAuthTestBed, DAY, IP, PASSWORD } from '../testing/auth-test-bed';

describe('SessionAuthenticator', () => {
  const bed = useAuthTestBed();

  describe('authenticate', () => {
    async function signedIn() {
      await bed.confirmedUser();
      return bed.service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
    }

    it('returns the user and session of a live token', async () => {
      const { token, user } = await signedIn();
      await expect(bed.sessionsAuth.authenticate(token)).resolves.toMatchObject({ user: { id: user.id }, session: { tokenHash: hashSecret(token) } });
    });

    it('refuses malformed and unknown tokens', async () => {
      await signedIn();
      await expect(bed.sessionsAuth.authenticate('')).resolves.toBeNull();
      await expect(bed.sessionsAuth.authenticate('not a token')).resolves.toBeNull();
      await expect(bed.sessionsAuth.authenticate('B'.repeat(43))).resolves.toBeNull();
    });

    it('refuses a revoked session (sign-out)', async () => {
      const { token } = await signedIn();
      await expect(bed.service.signOut(token)).resolves.toBe(true);
      expect(bed.sessions.row(token).revokedAt).toBeInstanceOf(Date);
      await expect(bed.sessionsAuth.authenticate(token)).resolves.toBeNull();
      await expect(bed.service.signOut(token)).resolves.toBe(false);
    });

    it('refuses a session idle for longer than sessionIdleMs', async () => {
      const { token } = await signedIn();
      const row = bed.sessions.row(token);
      row.lastUsedAt = ago(bed.config.auth.sessionIdleMs + 60_000);
      expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());

      await expect(bed.sessionsAuth.authenticate(token)).resolves.toBeNull();
    });

    it('keeps a session used within sessionIdleMs alive and records its use', async () => {
      const { token } = await signedIn();
      const row = bed.sessions.row(token);
      const lastUsed = ago(bed.config.auth.sessionIdleMs - DAY);
      row.lastUsedAt = lastUsed;

      await expect(bed.sessionsAuth.authenticate(token)).resolves.not.toBeNull();
      expect(row.lastUsedAt.getTime()).toBeGreaterThan(lastUsed.getTime());
    });

    it('refuses a session past its absolute expiry, however recently used', async () => {
      const { token } = await signedIn();
      const row = bed.sessions.row(token);
      row.expiresAt = ago(1_000);
      row.lastUsedAt = ago(0);

      await expect(bed.sessionsAuth.authenticate(token)).resolves.toBeNull();
    });

    it('refuses a session whose user is gone', async () => {
      const { token, user } = await signedIn();
      bed.users.rows.delete(user.id);
      await expect(bed.sessionsAuth.authenticate(token)).resolves.toBeNull();
    });
  });

  it('knows the administrators from ADMIN_EMAILS', async () => {
    const player = await bed.confirmedUser('player@example.com');
    const admin = await bed.confirmedUser('ops@example.com');
    const deployed = new SessionAuthenticator(bed.users, bed.sessions, loadConfig({ HAS_LOGIN: 'true', ADMIN_EMAILS: 'ops@example.com', NODE_ENV: 'production' }));
    await expect(deployed.isAdmin(admin)).resolves.toBe(true);
    // Outside the local try-out, being first means nothing.
    await expect(deployed.isAdmin(player)).resolves.toBe(false);
  });

  it('makes the first confirmed account the admin in the local try-out (nothing configured), and no other', async () => {
    const local = new SessionAuthenticator(bed.users, bed.sessions, loadConfig({}));
    const unconfirmed = (await bed.users.create({ email: 'typo@example.com', passwordHash: 'x', confirmedAt: null, googleSubject: null }))!;
    const first = await bed.confirmedUser('first@example.com');
    const second = await bed.confirmedUser('second@example.com');
    await expect(local.isAdmin(unconfirmed)).resolves.toBe(false);
    await expect(local.isAdmin(first)).resolves.toBe(true);
    await expect(local.isAdmin(second)).resolves.toBe(false);
  });
});
