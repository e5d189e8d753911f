import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher.adapter';

/**
 * The real argon2id hasher, counting what is asked of it: the timing rules (a dummy verify for an
 * unknown address) are about calls, and a fake hash would hide the real one's cost.
 */
export class CountingPasswordHasher extends Argon2PasswordHasher {
  readonly calls = { hash: 0, verify: 0, verifyDummy: 0 };

  override hash(password: string): Promise<string> {
    this.calls.hash++;
    return super.hash(password);
  }

  override verify(stored: string, password: string): Promise<boolean> {
    this.calls.verify++;
    return super.verify(stored, password);
  }

  override verifyDummy(password: string): Promise<void> {
    this.calls.verifyDummy++;
    return super.verifyDummy(password);
  }
}
