import * as argon2 from 'argon2';
import { InvalidCredentialsError, TooManyAttemptsError, UnconfirmedAccountError } from '../domain/auth.errors';
import { hashSecret } from '../domain/secrets';
import { useAuthTestBed, IP, PASSWORD } from '../testing/auth-test-bed';

// The real argon2, with its verify counted: proves how many argon2 verifications a sign-in costs.
jest.mock('argon2', () => {
  const actual = jest.requireActual<typeof import('argon2')>('argon2');
  return { ...actual, verify: jest.fn(actual.verify) };
});
const argon2Verifies = () => jest.mocked(argon2.verify).mock.calls.length;

describe('AuthService', () => {
  const bed = useAuthTestBed();

  describe('signIn', () => {
    it('answers an unknown email and a wrong password alike, each after exactly one argon2 verify', async () => {
      await bed.confirmedUser('player@example.com');

      bed.hasher.calls.verify = bed.hasher.calls.verifyDummy = 0;
      let before = argon2Verifies();
      const unknown = await bed.service.signIn({ email: 'nobody@example.com', password: PASSWORD }, IP).catch((e: unknown) => e);
      expect(bed.hasher.calls).toMatchObject({ verify: 0, verifyDummy: 1 });
      expect(argon2Verifies() - before).toBe(1);

      bed.hasher.calls.verify = bed.hasher.calls.verifyDummy = 0;
      before = argon2Verifies();
      const wrong = await bed.service.signIn({ email: 'player@example.com', password: 'wrong password' }, IP).catch((e: unknown) => e);
      expect(bed.hasher.calls).toMatchObject({ verify: 1, verifyDummy: 0 });
      expect(argon2Verifies() - before).toBe(1);

      expect(unknown).toBeInstanceOf(InvalidCredentialsError);
      expect(wrong).toBeInstanceOf(InvalidCredentialsError);
      expect((unknown as Error).constructor).toBe((wrong as Error).constructor);
      expect((unknown as Error).message).toBe((wrong as Error).message);
      expect((wrong as Error).message).toBe('Invalid email or password');
      expect(bed.sessions.rows.size).toBe(0);
    });

    it('answers an account without a password (Google-only) like an unknown email', async () => {
      await bed.service.signInWithGoogle({ subject: 'google-1', email: 'g@example.com', emailVerified: true });
      bed.hasher.calls.verify = bed.hasher.calls.verifyDummy = 0;

      await expect(bed.service.signIn({ email: 'g@example.com', password: PASSWORD }, IP)).rejects.toThrow(InvalidCredentialsError);
      expect(bed.hasher.calls).toMatchObject({ verify: 0, verifyDummy: 1 });
    });

    it('refuses an unconfirmed account with the right password, naming the address', async () => {
      await bed.service.signUp({ email: 'New@Example.com', password: PASSWORD, password_confirmation: PASSWORD });

      const error = await bed.service.signIn({ email: 'new@example.com', password: PASSWORD }, IP).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnconfirmedAccountError);
      expect((error as Error).message).toContain('new@example.com');
      expect(bed.sessions.rows.size).toBe(0);
    });

    it('starts a session whose bearer token is stored only hashed', async () => {
      const user = await bed.confirmedUser();

      const signedIn = await bed.service.signIn({ email: ' Player@Example.com', password: PASSWORD }, IP);
      expect(signedIn.user.id).toBe(user.id);
      expect(signedIn.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(signedIn.session.tokenHash).toBe(hashSecret(signedIn.token));
      expect(JSON.stringify([...bed.sessions.rows.values()])).not.toContain(signedIn.token);
      expect(signedIn.session.expiresAt.getTime() - signedIn.session.createdAt.getTime()).toBe(bed.config.auth.sessionMaxMs);
    });

    it('refuses the 11th attempt for one address from one client, whatever its spelling, before any hashing', async () => {
      for (let i = 0; i < 10; i++) {
        const email = i % 2 ? 'victim@example.com' : ' VICTIM@example.com';
        await expect(bed.service.signIn({ email, password: `guess ${i}` }, IP)).rejects.toThrow(InvalidCredentialsError);
      }
      const verifies = bed.hasher.calls.verifyDummy + bed.hasher.calls.verify;

      const error = await bed.service.signIn({ email: 'victim@example.com', password: 'guess 11' }, IP).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
      expect(bed.hasher.calls.verifyDummy + bed.hasher.calls.verify).toBe(verifies);

      // Another address from the same client is its own count.
      await expect(bed.service.signIn({ email: 'other@example.com', password: 'guess' }, IP)).rejects.toThrow(InvalidCredentialsError);
    });

    it("does not let strangers lock the owner out: failures from elsewhere only slow the address down", async () => {
      await bed.confirmedUser('owner@example.com');
      const waits: number[] = [];
      jest.spyOn(bed.service as unknown as { wait(ms: number): Promise<void> }, 'wait').mockImplementation(async (ms) => void waits.push(ms));

      // Thirty wrong passwords from ten attackers' addresses, three each.
      for (let i = 0; i < 30; i++) {
        await expect(bed.service.signIn({ email: 'owner@example.com', password: `guess ${i}` }, `198.51.100.${i % 10}`)).rejects.toThrow(
          InvalidCredentialsError,
        );
      }
      // The first ten are free; then each attempt waits longer, up to the cap, and none is refused.
      expect(waits.slice(0, 5)).toEqual([500, 1_000, 2_000, 4_000, 5_000]);
      expect(Math.max(...waits)).toBe(5_000);
      expect(waits).toHaveLength(20);

      // The owner, from their own address, gets in (after the same short wait).
      await expect(bed.service.signIn({ email: 'owner@example.com', password: PASSWORD }, IP)).resolves.toMatchObject({
        user: { email: 'owner@example.com' },
      });
      expect(waits.at(-1)).toBe(5_000);
    });

    it('starts a client\'s count again after it signs in', async () => {
      await bed.confirmedUser('forgetful@example.com');
      // Twenty-seven typos slow the address down too: the waits are skipped here.
      jest.spyOn(bed.service as unknown as { wait(ms: number): Promise<void> }, 'wait').mockResolvedValue(undefined);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 9; i++) {
          await expect(bed.service.signIn({ email: 'forgetful@example.com', password: `typo ${i}` }, IP)).rejects.toThrow(InvalidCredentialsError);
        }
        await expect(bed.service.signIn({ email: 'forgetful@example.com', password: PASSWORD }, IP)).resolves.toBeDefined();
      }
    });
  });
});
