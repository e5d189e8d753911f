import { Injectable, type OnModuleInit } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';
import { PasswordHasher } from '../../domain/ports';

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 20-40 ms per hash on a small server. */
const OPTIONS = { type: argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class Argon2PasswordHasher extends PasswordHasher implements OnModuleInit {
  /** A real hash of a random password with the same options, so unknown emails cost a real verify. */
  private dummy?: Promise<string>;

  onModuleInit(): void {
    this.dummy = hash(`dummy-${Math.random()}`, OPTIONS);
  }

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }

  async verifyDummy(password: string): Promise<void> {
    this.dummy ??= hash(`dummy-${Math.random()}`, OPTIONS);
    await verify(await this.dummy, password).catch(() => false);
  }
}
