import { z } from 'zod';
import {
  DONATION_MAX_USD,
  DONATION_MIN_USD,
  LEDGER_EVENT_KINDS,
  LOT_SOURCES,
  ORDER_STATUSES,
  type AdminOrderDetail,
  type AdminOrderView,
  type CheckoutInput,
  type CheckoutView,
  type CreditExportRow,
  type CreditPack,
  type ExportView,
  type OrderExportRow,
  type ReceiptView,
  type CreditsView,
  type LedgerEventView,
  type OrderView,
  type Paged,
  type PricingData,
  type RefusedEventView,
} from './billing';

/** Schemas of the credits and billing API (zod: kept apart so pages that only format prices do not load it). */

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

/** The Idempotency-Key header of money operations: a retried request with the same key changes nothing more. */
export const idempotencyKeySchema = z
  .string({ error: 'Send an Idempotency-Key header (8-100 letters, digits, "_", ".", ":" or "-"), one per operation' })
  .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'Idempotency-Key: 8-100 letters, digits, "_", ".", ":" or "-"');

/** POST /api/v1/admin/orders/:id/refund: the whole remaining amount when amount_cents is left out (or no body at all). */
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

// Response shapes, for the OpenAPI document (the TypeScript interfaces in ./billing are the contract;
// `satisfies` keeps the two in step).
const isoDate = z.string().describe('ISO 8601 date and time');
const paged = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), pages: z.number().int(), total: z.number().int() });

const creditPackSchema = z.object({
  id: z.string(),
  name: z.string(),
  credits: z.number().int(),
  validity_days: z.number().int(),
  price_cents: z.number().int().describe('US cents'),
  currency: z.literal('usd'),
  most_popular: z.boolean(),
  features: z.array(z.string()),
}) satisfies z.ZodType<CreditPack>;

export const pricingSchema = z.object({
  packs: z.array(creditPackSchema),
  test_mode: z.boolean().describe('Payments go to the local test checkout: no real money'),
  trial: z.object({ credits: z.number().int(), days: z.number().int() }),
  donation: z.object({ credits_per_dollar: z.number().int(), min_usd: z.number().int(), max_usd: z.number().int(), validity_days: z.number().int() }),
  refund_rule: z.object({ window_days: z.number().int(), max_used_percent: z.number().int() }).describe('Self-service refunds: a pack paid within window_days with less than max_used_percent of its credits used'),
}) satisfies z.ZodType<PricingData>;

export const checkoutViewSchema = z.object({
  order_id: z.uuid(),
  url: z.string().describe("Where the browser goes to pay: Stripe Checkout, or the local test checkout's path"),
}) satisfies z.ZodType<CheckoutView>;

export const orderViewSchema = z.object({
  id: z.uuid(),
  number: z.string().describe('ORD- and 8 characters'),
  kind: z.enum(['pack', 'donation']),
  description: z.string(),
  amount_cents: z.number().int(),
  refunded_cents: z.number().int().describe('Cumulative'),
  currency: z.literal('usd'),
  status: z.enum(ORDER_STATUSES),
  credits: z.number().int(),
  payment_method: z.string().nullable(),
  test: z.boolean(),
  created_at: isoDate,
  paid_at: isoDate.nullable(),
  credits_to_take_back: z.number().int().describe('Credits its refunds and disputes asked back in all'),
  credits_taken_back: z.number().int().describe('Credits actually taken back (spent ones cannot be)'),
  refund_failed_cents: z.number().int().describe('Refunds that failed after they were counted'),
  dispute_won_at: isoDate.nullable().describe('When a dispute closed with the payment standing'),
  self_refund: z.object({ allowed: z.boolean(), reason: z.string().nullable() }).nullable().describe('Whether the buyer may refund it themself now, and why not'),
}) satisfies z.ZodType<OrderView>;

export const receiptSchema = z.object({
  order: orderViewSchema,
  seller: z.object({ name: z.string(), address: z.array(z.string()) }),
  buyer_email: z.string().nullable(),
  items: z.array(z.object({ description: z.string(), quantity: z.number().int(), credits: z.number().int(), amount_cents: z.number().int() })),
  refunds: z.array(z.object({ amount_cents: z.number().int(), created_at: isoDate, by: z.enum(['you', 'admin', 'payment_service']) })),
  invoice_url: z.string().nullable().describe("Stripe's hosted invoice"),
}) satisfies z.ZodType<ReceiptView>;

/** ?format=csv|json&tz=Area/City of the exports. */
export const exportQuerySchema = z.strictObject({
  format: z.enum(['csv', 'json'], { error: 'format is "csv" or "json"' }).default('csv'),
  tz: z
    .string()
    .max(64)
    .default('UTC')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'tz must be an IANA time zone such as Europe/Berlin'),
});

const exportSchema = <T extends z.ZodType>(row: T) =>
  z.object({ time_zone: z.string(), rows: z.array(row), totals: z.record(z.string(), z.union([z.number(), z.string()])) });

export const orderExportSchema = exportSchema(
  z.object({
    number: z.string(),
    date: z.string(),
    description: z.string(),
    status: z.enum(ORDER_STATUSES),
    amount_usd: z.string(),
    refunded_usd: z.string(),
    credits: z.number().int(),
    payment_method: z.string(),
  }),
) satisfies z.ZodType<ExportView<OrderExportRow>>;

export const creditExportSchema = exportSchema(
  z.object({ date: z.string(), kind: z.enum(LEDGER_EVENT_KINDS), lot: z.string(), reason: z.string(), credits: z.number().int(), balance_after: z.number().int() }),
) satisfies z.ZodType<ExportView<CreditExportRow>>;

export const refusedEventPageSchema = paged(
  z.object({ id: z.string(), type: z.string(), problem: z.string().describe('Why it was not applied'), received_at: isoDate }),
) satisfies z.ZodType<Paged<RefusedEventView>>;

export const orderPageSchema = paged(orderViewSchema) satisfies z.ZodType<Paged<OrderView>>;

const adminOrderViewSchema = orderViewSchema.extend({ user_id: z.uuid(), email: z.string().nullable() }) satisfies z.ZodType<AdminOrderView>;
export const adminOrderPageSchema = paged(adminOrderViewSchema) satisfies z.ZodType<Paged<AdminOrderView>>;

export const adminOrderDetailSchema = z.object({
  order: adminOrderViewSchema,
  credits_revoked: z.number().int(),
  refundable_cents: z.number().int(),
  lot: z.object({ granted: z.number().int(), remaining: z.number().int(), expires_at: isoDate }).nullable(),
  credit_events: z.array(
    z.object({ kind: z.enum(LEDGER_EVENT_KINDS), credits: z.number().int(), description: z.string(), created_at: isoDate, admin: z.string().nullable().describe('The admin who made the change') }),
  ),
  refunds: z.array(z.object({ amount_cents: z.number().int(), refunded_cents: z.number().int().describe('Cumulative, after it'), admin: z.string().nullable(), created_at: isoDate })),
  payment_events: z.array(z.object({ id: z.string(), type: z.string(), received_at: isoDate })),
}) satisfies z.ZodType<AdminOrderDetail>;

export const creditsViewSchema = z.object({
  balance: z.number().int(),
  lots: z.array(
    z.object({
      id: z.uuid(),
      source: z.enum(LOT_SOURCES),
      granted: z.number().int(),
      remaining: z.number().int(),
      expires_at: isoDate,
      created_at: isoDate,
      expiring_soon: z.boolean(),
    }),
  ),
  has_paid: z.boolean(),
  daily_usage: z.array(z.object({ date: z.string().describe('YYYY-MM-DD (UTC)'), credits: z.number().int() })),
  trial_refused: z.boolean().describe('No free trial for this account: its address (ignoring +tags, and dots for Gmail) already had one'),
}) satisfies z.ZodType<CreditsView>;

export const ledgerPageSchema = paged(
  z.object({ id: z.string(), kind: z.enum(LEDGER_EVENT_KINDS), credits: z.number().int().describe('Signed change of the balance'), description: z.string(), created_at: isoDate }),
) satisfies z.ZodType<Paged<LedgerEventView>>;
