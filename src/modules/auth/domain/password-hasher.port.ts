/** Password hashing (argon2id). `verifyDummy` spends the same time as a real verify for unknown emails. */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
  abstract verifyDummy(password: string): Promise<void>;
}
