import { defineEntity, p } from '@mikro-orm/core';

/**
 * The ledger's tables, declared to MikroORM (their schema is the migration's: see skipTables in
 * mikro-orm.options.ts). Reads and writes go through PostgresCreditLedger in plain SQL: its
 * conditional updates and row locks are the point, and a unit of work would hide them.
 */
export const CreditLotSchema = defineEntity({
  name: 'CreditLot',
  tableName: 'credit_lots',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.uuid(),
    source: p.string().length(16),
    sourceRef: p.string().length(200).unique(),
    description: p.string().length(200),
    granted: p.integer(),
    remaining: p.integer(),
    /** Credits the lot's order wants taken back in all (refund share, dispute), and those actually taken. */
    clawbackTarget: p.integer().default(0),
    clawbackTaken: p.integer().default(0),
    expiresAt: p.datetime(),
    expiryRecordedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export const CreditChargeSchema = defineEntity({
  name: 'CreditCharge',
  tableName: 'credit_charges',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    userId: p.uuid(),
    idempotencyKey: p.string().length(200).unique(),
    amount: p.integer(),
    state: p.string().length(10),
    description: p.string().length(200),
    createdAt: p.datetime().defaultRaw('now()'),
    settledAt: p.datetime().nullable(),
  },
});

export const CreditChargePartSchema = defineEntity({
  name: 'CreditChargePart',
  tableName: 'credit_charge_parts',
  properties: {
    chargeId: p.uuid().primary(),
    lotId: p.uuid().primary(),
    amount: p.integer(),
  },
});

export const CreditEventSchema = defineEntity({
  name: 'CreditEvent',
  tableName: 'credit_events',
  properties: {
    id: p.bigint().primary().autoincrement(),
    userId: p.uuid(),
    kind: p.string().length(10),
    credits: p.integer(),
    lotId: p.uuid().nullable(),
    chargeId: p.uuid().nullable(),
    /** The admin who made the change (grants, refunds); null for the system and the user's own spending. */
    actorId: p.uuid().nullable(),
    description: p.string().length(200),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export const CREDITS_ENTITIES = [CreditLotSchema, CreditChargeSchema, CreditChargePartSchema, CreditEventSchema];
