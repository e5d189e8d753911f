import { z } from 'zod';

/** The reminder mails an account gets (both on until switched off on /account or by a mail's unsubscribe link). */
export interface MailPreferencesView {
  low_balance: boolean;
  expiry: boolean;
}

export const mailPreferencesSchema = z.object({ low_balance: z.boolean(), expiry: z.boolean() }) satisfies z.ZodType<MailPreferencesView>;

export const mailPreferencesInputSchema = z
  .strictObject({ low_balance: z.boolean({ error: 'low_balance is true or false' }).optional(), expiry: z.boolean({ error: 'expiry is true or false' }).optional() })
  .refine((input) => input.low_balance !== undefined || input.expiry !== undefined, 'Send low_balance, expiry or both');

/** POST /api/v1/reminders/unsubscribe?token=: the signed token of a reminder mail. */
export const unsubscribeQuerySchema = z.strictObject({ token: z.string({ error: 'The unsubscribe link has no token' }).min(1).max(200) });

/** What the one-click unsubscribe switched off. */
export interface UnsubscribeView {
  unsubscribed: 'low_balance' | 'expiry';
}
export const unsubscribeViewSchema = z.object({ unsubscribed: z.enum(['low_balance', 'expiry']) }) satisfies z.ZodType<UnsubscribeView>;
