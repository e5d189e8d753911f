import { defineEntity, p } from '@mikro-orm/core';
import { Order } from '../../domain/order';

/**
 * Orders and the gateway events already applied, declared to MikroORM (their schema is the migration's: see
 * skipTables in mikro-orm.options.ts). Reads
 * and writes go through PostgresOrderRepository in plain SQL (row locks, conditional updates, and
 * the transaction the credit ledger joins).
 */
export const OrderSchema = defineEntity({
  class: Order,
  tableName: 'orders',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    number: p.string().length(20).unique(),
    userId: p.uuid(),
    kind: p.string().length(10),
    packId: p.string().length(40).nullable(),
    description: p.string().length(120),
    credits: p.integer(),
    validityDays: p.integer(),
    amountCents: p.integer(),
    refundedCents: p.integer().default(0),
    creditsRevoked: p.integer().default(0),
    gatewayLookups: p.integer().default(0),
    disputeWonAt: p.datetime().nullable(),
    refundFailedCents: p.integer().default(0),
    status: p.string().length(20),
    gateway: p.string().length(10),
    gatewaySessionId: p.string().length(255).nullable().unique(),
    gatewayPaymentRef: p.string().length(255).nullable().index(),
    paymentMethod: p.string().length(100).nullable(),
    invoiceUrl: p.string().length(1000).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    paidAt: p.datetime().nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export const PaymentEventSchema = defineEntity({
  name: 'PaymentEvent',
  tableName: 'payment_events',
  properties: {
    id: p.string().length(255).primary(),
    type: p.string().length(60),
    orderId: p.uuid().nullable().index(),
    /** Why a signed event was refused unapplied (unreadable, or of the other mode); null for the others. */
    problem: p.string().length(300).nullable(),
    receivedAt: p.datetime().defaultRaw('now()'),
  },
});

/** Admin refunds, one per idempotency key: a retried request finds its first result here. */
export const OrderRefundSchema = defineEntity({
  name: 'OrderRefund',
  tableName: 'order_refunds',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    orderId: p.uuid(),
    idempotencyKey: p.string().length(100).unique(),
    amountCents: p.integer(),
    refundedCents: p.integer(),
    adminId: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
