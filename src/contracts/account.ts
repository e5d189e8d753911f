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

/** GET /api/v1/account: what the account page shows. */
export interface AccountView {
  email: string;
  created_at: string;
  sign_in_methods: { password: boolean; google: boolean };
  /** When this session signed in: within 15 minutes it may delete the account without the password. */
  signed_in_at: string;
  /** What stays after a deletion, and why. */
  kept_after_deletion: string;
}

export const accountViewSchema = z.object({
  email: z.string(),
  created_at: z.string(),
  sign_in_methods: z.object({ password: z.boolean(), google: z.boolean() }),
  signed_in_at: z.string(),
  kept_after_deletion: z.string(),
}) satisfies z.ZodType<AccountView>;
