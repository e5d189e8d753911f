import { defineEntity, p } from '@mikro-orm/core';

/**
 * A message waiting to be sent. Its body holds links with tokens, so it lives in PostgreSQL (never
 * in a job's data, which holds only this row's id) and is deleted once sent.
 */
export class OutboxMail {
  id!: string;
  to!: string;
  subject!: string;
  text!: string;
  html!: string;
  createdAt!: Date;
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
  },
});
