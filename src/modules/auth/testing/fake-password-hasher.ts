import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PasswordHasher } from '../domain/password-hasher.port';

const digest = (salt: string, password: string) => createHash('sha256').update(`${salt}:${password}`).digest('base64url');

/**
 * A salted SHA-256 in place of argon2id, for specs about what happens around the hash (controllers,
 * flows): the same answers at a fraction of the cost. Specs about the hashing itself (its cost,
 * the dummy verify of an unknown address) use CountingPasswordHasher, the real one counted.
 */
export class FakePasswordHasher extends PasswordHasher {
  async hash(password: string): Promise<string> {
    const salt = randomBytes(8).toString('base64url');
    return `fake$${salt}$${digest(salt, password)}`;
  }

  async verify(stored: string, password: string): Promise<boolean> {
    const [scheme, salt, hash] = stored.split('$');
    if (scheme !== 'fake' || !salt || !hash) return false;
    const expected = Buffer.from(hash);
    const actual = Buffer.from(digest(salt, password));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  async verifyDummy(): Promise<void> {}
}
