/**
 * Credits and payments as the browser and the API see them (shared by both). Money is integer US
 * cents everywhere; credits are whole numbers. Dates are ISO strings.
 */
import { INSUFFICIENT_CREDITS } from './insufficient-credits';

/** Spec: a $1 donation gives 50 credits. Donations are whole dollars from $1 to $500. */
export const CREDITS_PER_DONATED_DOLLAR = 50;
export const DONATION_MIN_USD = 1;
export const DONATION_MAX_USD = 500;
/** Donated credits stay valid this long (the pricing page says so). */
export const DONATION_VALIDITY_DAYS = 365;
/** Spec: the free trial lasts 14 days. */
export const TRIAL_DAYS = 14;
/** /usage highlights lots that expire within this many days. */
export const EXPIRING_SOON_DAYS = 7;
/** The code of the 402 answer that opens the low-credit modals (a module of its own: see there). */
export { INSUFFICIENT_CREDITS };

export const creditsForDonation = (usd: number) => usd * CREDITS_PER_DONATED_DOLLAR;

/** A credit pack of the pricing table (content/pricing.yaml). */
export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  validity_days: number;
  price_cents: number;
  currency: 'usd';
  most_popular: boolean;
  features: string[];
}

export interface PricingData {
  packs: CreditPack[];
  /** Payments go to the site's own test checkout (no Stripe key): no real money. */
  test_mode: boolean;
  trial: { credits: number; days: number };
  donation: { credits_per_dollar: number; min_usd: number; max_usd: number; validity_days: number };
  refund_rule: RefundRule;
}

/** Self-service refunds: a pack paid within `window_days` with less than `max_used_percent` of its credits used (window 0: none). */
export interface RefundRule {
  window_days: number;
  max_used_percent: number;
}

/** POST /api/v1/checkout: a pack, or a donation of whole dollars (exactly one of the two). */
export interface CheckoutInput {
  pack_id?: string;
  donation_usd?: number;
}

export interface CheckoutView {
  order_id: string;
  /** Where the browser goes to pay: Stripe Checkout, or the local test checkout. */
  url: string;
}

export const ORDER_STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'disputed', 'canceled', 'expired', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A billing record (spec: order id, amount, refunded amount, status, credits, created at). */
export interface OrderView {
  id: string;
  /** The order number shown to people (ORD-XXXXXXXX). */
  number: string;
  kind: 'pack' | 'donation';
  /** The pack's name, or "Donation". */
  description: string;
  amount_cents: number;
  refunded_cents: number;
  currency: 'usd';
  status: OrderStatus;
  credits: number;
  /** "Visa •••• 4242", when the gateway told us. */
  payment_method: string | null;
  /** True when paid through the local test checkout (no real money). */
  test: boolean;
  created_at: string;
  paid_at: string | null;
  /** Credits its refunds and disputes asked back in all, and those actually taken (spent credits cannot be). */
  credits_to_take_back: number;
  credits_taken_back: number;
  /** Refunds that failed at the bank after they were counted (their credits came back). */
  refund_failed_cents: number;
  /** When a dispute of the payment closed with the payment standing (its credits came back). */
  dispute_won_at: string | null;
  /** Whether its owner may refund it themself now (REFUND_WINDOW_DAYS, REFUND_MAX_USED_PERCENT), and why not; null for orders never paid. */
  self_refund: { allowed: boolean; reason: string | null } | null;
}

/** /billing/receipts/{order}: what a receipt shows. */
export interface ReceiptView {
  order: OrderView;
  seller: { name: string; address: string[] };
  /** Null once the account is deleted. */
  buyer_email: string | null;
  items: { description: string; quantity: number; credits: number; amount_cents: number }[];
  /** Each refund with its date; one the payment service reported without us (its dashboard) is dated by its event. */
  refunds: { amount_cents: number; created_at: string; by: 'you' | 'admin' | 'payment_service' }[];
  /** Stripe's hosted invoice, when Checkout made one. */
  invoice_url: string | null;
}

/** A row of the orders export (CSV and JSON): dates in the requested time zone. */
export interface OrderExportRow {
  number: string;
  date: string;
  description: string;
  status: OrderStatus;
  amount_usd: string;
  refunded_usd: string;
  credits: number;
  payment_method: string;
}

/** A row of the credit history export: which lot, why, the change and the balance after it. */
export interface CreditExportRow {
  date: string;
  kind: LedgerEventKind;
  lot: string;
  reason: string;
  credits: number;
  balance_after: number;
}

/** An export as JSON: the rows, the time zone their dates are in, and the totals. */
export interface ExportView<Row> {
  time_zone: string;
  rows: Row[];
  totals: Record<string, number | string>;
}

/** A signed webhook event acknowledged but not applied: unreadable, or of the other mode (live or test). */
export interface RefusedEventView {
  id: string;
  type: string;
  problem: string;
  received_at: string;
}

export interface Paged<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

export const LOT_SOURCES = ['trial', 'pack', 'donation', 'admin'] as const;
export type LotSource = (typeof LOT_SOURCES)[number];

export interface CreditLotView {
  id: string;
  source: LotSource;
  granted: number;
  remaining: number;
  expires_at: string;
  created_at: string;
  /** Expires within EXPIRING_SOON_DAYS. */
  expiring_soon: boolean;
}

export interface CreditsView {
  balance: number;
  /** Spendable lots, soonest to expire first. */
  lots: CreditLotView[];
  /** Whether the account ever paid for credits (a pack or a donation): chooses between the two low-credit modals. */
  has_paid: boolean;
  /** Credits spent per UTC day over the last 30 days, oldest first (captured charges). */
  daily_usage: { date: string; credits: number }[];
  /** No free trial for this account: its address (normalised, docs/features.md, "Accounts") already had one. */
  trial_refused: boolean;
}

export const LEDGER_EVENT_KINDS = ['grant', 'spend', 'refund', 'revoke', 'expire', 'restore'] as const;
export type LedgerEventKind = (typeof LEDGER_EVENT_KINDS)[number];

/** One line of the credit history: grants add, spends take, a refund of a failed job gives back, a restore gives back what a refund or dispute took (a won dispute, a failed refund). */
export interface LedgerEventView {
  id: string;
  kind: LedgerEventKind;
  /** Signed change of the balance. */
  credits: number;
  description: string;
  created_at: string;
}

/** The 402 body: { errors, code: INSUFFICIENT_CREDITS, balance, has_paid }. */
export interface InsufficientCreditsBody {
  errors: string[];
  code: typeof INSUFFICIENT_CREDITS;
  balance: number;
  has_paid: boolean;
}

/**
 * Which low-credit modal to open, by payment history (every confirmed account gets trial credits,
 * so credits say nothing): 'charge' for an account that has paid before, else 'donate'.
 */
export const lowCreditModal = (body: Pick<InsufficientCreditsBody, 'has_paid'>): 'charge' | 'donate' => (body.has_paid ? 'charge' : 'donate');

/**
 * How many of an order's credits a cumulative refund of `refundedCents` takes back in all: the
 * refunded share of the credits, rounded up so a full refund takes every credit. (The ledger takes
 * back only what is still unspent.) Shared with the admin's refund confirmation.
 */
export function creditsForRefundedCents(order: { credits: number; amountCents: number }, refundedCents: number): number {
  const share = Math.min(Math.max(refundedCents, 0), order.amountCents) / order.amountCents;
  return Math.min(order.credits, Math.max(0, Math.ceil(order.credits * share - 1e-9)));
}

/** An order as the admin screens see it: with the buyer's address. */
export interface AdminOrderView extends OrderView {
  user_id: string;
  /** Null when the account is gone. */
  email: string | null;
}

/** /admin/orders/{id}: the order, its credits, its refunds and the gateway's events. */
export interface AdminOrderDetail {
  order: AdminOrderView;
  /** Credits of the order actually taken back so far (refund shares, a dispute; spent ones cannot be). */
  credits_revoked: number;
  /** What is left to refund, in cents. */
  refundable_cents: number;
  /** The order's credit lot, once paid: what it granted and what is still unspent. */
  lot: { granted: number; remaining: number; expires_at: string } | null;
  /** The lot's history: granted, spent, taken back, expired; `admin` is who did it, when an admin did. */
  credit_events: { kind: LedgerEventKind; credits: number; description: string; created_at: string; admin: string | null }[];
  refunds: { amount_cents: number; refunded_cents: number; admin: string | null; created_at: string }[];
  /** Gateway events applied to it (Stripe's, or the test checkout's), oldest first. */
  payment_events: { id: string; type: string; received_at: string }[];
}

/** Billing's section of the page data (src/modules/billing/adapters/pages/billing.pages.ts): null while payments are off. */
export interface BillingPages {
  /** The credit packs, trial and donation terms; null while payments are off. */
  pricing(): Promise<PricingData | null>;
  /** Admin pages only (route access 'admin'); null while payments are off. */
  adminOrders(filter: { email?: string; number?: string; status?: OrderStatus }, page: number): Promise<Paged<AdminOrderView> | null>;
  /** Null for no such order, or payments off. */
  adminOrder(id: string): Promise<AdminOrderDetail | null>;
  /** Signed webhook events acknowledged but not applied, newest first; null while payments are off. */
  refusedEvents(page: number): Promise<Paged<RefusedEventView> | null>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly billing: BillingPages;
  }
}
