import { defineEntity, p } from '@mikro-orm/core';
import { OneTimeToken } from '../../domain/one-time-token';
import { Session } from '../../domain/session';
import { User } from '../../domain/user';

export const UserSchema = defineEntity({
  class: User,
  tableName: 'users',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    email: p.string().length(256).unique(),
    passwordHash: p.string().length(256).nullable(),
    confirmedAt: p.datetime().nullable(),
    googleSubject: p.string().length(255).nullable().unique(),
    createdAt: p.datetime(),
  },
});

export const SessionSchema = defineEntity({
  class: Session,
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.uuid().index(),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});

export const OneTimeTokenSchema = defineEntity({
  class: OneTimeToken,
  tableName: 'one_time_tokens',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.uuid().index(),
    purpose: p.string().length(32),
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
