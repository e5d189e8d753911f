import { z } from 'zod';

/** One message to one recipient, with its plain-text and HTML bodies. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A one-click unsubscribe URL (RFC 8058): sent as List-Unsubscribe with List-Unsubscribe-Post. */
  listUnsubscribe?: string;
}

/** The headers of a one-click unsubscribe (RFC 8058) for a message that has one. */
export const unsubscribeHeaders = (message: Pick<MailMessage, 'listUnsubscribe'>): Record<string, string> =>
  message.listUnsubscribe ? { 'List-Unsubscribe': `<${message.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {};

/** The caps every message is checked against before it is queued or sent. */
export const mailMessageSchema = z.object({
  to: z.email().max(256),
  // A line break in a subject would start a new header: refused, not stripped.
  subject: z.string().min(1).max(200).regex(/^[^\r\n]*$/, 'must be one line'),
  text: z.string().min(1).max(100_000),
  html: z.string().max(100_000),
  listUnsubscribe: z.url({ protocol: /^https?$/ }).max(1000).optional(),
}) satisfies z.ZodType<MailMessage>;
