import { Injectable, type OnModuleInit } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';
import { AppConfig } from 'src/config/app-config';
import { AuthBusyError } from '../../domain/auth.errors';
import { PasswordHasher } from '../../domain/password-hasher.port';
import { HashingGate } from './hashing-gate';

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 20-40 ms per hash on a small server. */
const OPTIONS = { type: argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;
/** What a refused caller is told to wait: a queue of 32 drains in about a second. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** argon2id through a per-process gate (AUTH_HASH_CONCURRENCY, AUTH_HASH_QUEUE): see HashingGate. */
@Injectable()
export class Argon2PasswordHasher extends PasswordHasher implements OnModuleInit {
  /** A real hash of a random password with the same options, so unknown emails cost a real verify. */
  private dummy?: Promise<string>;
  private readonly gate: HashingGate;

  constructor(config: AppConfig) {
    super();
    this.gate = new HashingGate(config.auth.hashing, () => new AuthBusyError(BUSY_RETRY_AFTER_SECONDS));
  }

  onModuleInit(): void {
    this.dummy = hash(`dummy-${Math.random()}`, OPTIONS);
  }

  hash(password: string): Promise<string> {
    return this.gate.run(() => hash(password, OPTIONS));
  }

  verify(stored: string, password: string): Promise<boolean> {
    return this.gate.run(() => verify(stored, password).catch(() => false));
  }

  async verifyDummy(password: string): Promise<void> {
    this.dummy ??= hash(`dummy-${Math.random()}`, OPTIONS);
    const dummy = await this.dummy;
    await this.gate.run(() => verify(dummy, password).catch(() => false));
  }
}
