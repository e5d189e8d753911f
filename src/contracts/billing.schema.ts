import { z } from 'zod';
import { DONATION_MAX_USD, DONATION_MIN_USD, type CheckoutInput } from './billing';

/** Request schemas of the credits and billing API (zod: kept apart so pages that only format prices do not load it). */

/** POST /api/v1/checkout: a pack, or a donation of whole dollars (exactly one of the two). */
export const checkoutSchema = z
  .strictObject({
    pack_id: z.string({ error: 'Choose a credit pack' }).trim().min(1, 'Choose a credit pack').max(40).optional(),
    donation_usd: z
      .number({ error: 'Enter a whole number of dollars' })
      .int('Enter a whole number of dollars')
      .min(DONATION_MIN_USD, `Donations start at $${DONATION_MIN_USD}`)
      .max(DONATION_MAX_USD, `Donations are at most $${DONATION_MAX_USD}`)
      .optional(),
  })
  .refine((input) => (input.pack_id === undefined) !== (input.donation_usd === undefined), 'Send pack_id, or donation_usd in whole dollars') satisfies z.ZodType<CheckoutInput, unknown>;

/** ?page=N of the paged lists. */
export const pageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** POST /api/v1/admin/orders/:id/refund: the whole remaining amount when amount_cents is left out. */
export const adminRefundSchema = z.strictObject({
  amount_cents: z.number().int().min(1).max(1_000_000).optional(),
});

/** POST /api/v1/admin/credits: credits for an account, with the reason shown in its history. */
export const adminGrantSchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(256).pipe(z.email()),
  credits: z.number().int().min(1).max(1_000_000),
  validity_days: z.number().int().min(1).max(3650).default(365),
  reason: z.string().trim().min(3).max(200),
});
