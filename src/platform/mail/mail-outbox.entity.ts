import { defineEntity, p, type Opt } from '@mikro-orm/core';

/**
 * A message waiting to be sent. Its body holds links with tokens, so it lives in PostgreSQL (never
 * in a job's data, which holds only this row's id) and is deleted once sent. A send in flight holds
 * a lease (`sendingUntil`); attempts are counted here, across every round the relay starts; an
 * entry that gave up keeps `failedAt` and its last error (codes only) for /admin.
 */
export class OutboxMail {
  id!: string;
  to!: string;
  subject!: string;
  text!: string;
  html!: string;
  createdAt!: Date;
  attempts: Opt<number> = 0;
  /** Attempts whose outcome is unknown (the server went quiet after the send began): each may be a copy. */
  unknownOutcomes: Opt<number> = 0;
  sendingUntil?: Date | null;
  failedAt?: Date | null;
  lastError?: string | null;
  listUnsubscribe?: string | null;
}

export const OutboxMailSchema = defineEntity({
  class: OutboxMail,
  tableName: 'mail_outbox',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    to: p.string().length(256),
    subject: p.string().length(200),
    text: p.text(),
    html: p.text(),
    createdAt: p.datetime().index(),
    attempts: p.integer().default(0),
    unknownOutcomes: p.integer().default(0),
    sendingUntil: p.datetime().nullable(),
    failedAt: p.datetime().nullable(),
    lastError: p.string().length(500).nullable(),
    listUnsubscribe: p.string().length(1000).nullable(),
  },
});
