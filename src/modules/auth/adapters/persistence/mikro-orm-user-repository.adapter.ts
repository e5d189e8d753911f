import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { User } from '../../domain/user';
import { UserRepository } from '../../domain/user-repository.port';
import { UserSchema } from './auth.entities';

@Injectable()
export class MikroOrmUserRepository extends UserRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(id: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { email });
  }

  findByGoogleSubject(subject: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { googleSubject: subject });
  }

  async create(data: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null> {
    const em = this.em.fork();
    const user = em.create(UserSchema, { ...data, createdAt: new Date() });
    try {
      await em.flush();
      return user;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return null;
      throw error;
    }
  }

  async update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void> {
    await this.em.fork().nativeUpdate(UserSchema, { id }, changes);
  }

  async firstConfirmedId(): Promise<string | null> {
    const [first] = await this.em.fork().find(UserSchema, { confirmedAt: { $ne: null } }, { orderBy: { confirmedAt: 'asc', createdAt: 'asc' }, limit: 1, fields: ['id'] });
    return first?.id ?? null;
  }

  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const users = await this.em.fork().find(UserSchema, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'email'] });
    return new Map(users.map((user) => [user.id, user.email]));
  }
}
