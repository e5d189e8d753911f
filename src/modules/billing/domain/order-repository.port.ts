import type { OrderStatus } from 'src/contracts/billing';
import type { Order } from './order';

/** An admin's refund of an order, kept under its idempotency key. */
export interface OrderRefund {
  orderId: string;
  idempotencyKey: string;
  amountCents: number;
  /** The payment's cumulative refunded amount after it. */
  refundedCents: number;
  /** Null for a refund the buyer made themself (the self-service rule). */
  adminId: string | null;
  createdAt: Date;
}

/** A signed gateway event we acknowledged without applying it, and why. */
export interface RefusedEvent {
  id: string;
  type: string;
  problem: string;
  receivedAt: Date;
}

export interface OrderSearch {
  email?: string;
  number?: string;
  status?: OrderStatus;
}

export type NewOrder = Pick<Order, 'userId' | 'kind' | 'packId' | 'description' | 'credits' | 'validityDays' | 'amountCents' | 'gateway'>;

export type OrderChanges = Partial<
  Pick<Order, 'status' | 'refundedCents' | 'creditsRevoked' | 'gatewaySessionId' | 'gatewayPaymentRef' | 'paymentMethod' | 'invoiceUrl' | 'paidAt' | 'disputeWonAt' | 'refundFailedCents'>
>;

/** Orders and the gateway events already applied. The `lock*` reads take a row lock: call them inside inTransaction. */
export abstract class OrderRepository {
  /** Runs `work` in one database transaction; the ledger and this repository join it. */
  abstract inTransaction<T>(work: () => Promise<T>): Promise<T>;
  abstract create(order: NewOrder): Promise<Order>;
  /**
   * Creates the order unless its user already has `limit` pending orders created within `withinMs`
   * (then null); checked and created under a per-user lock, so a burst cannot slip past the count.
   */
  abstract createIfFewerOpen(order: NewOrder, limit: number, withinMs: number): Promise<Order | null>;
  /** The user's pending orders created within `withinMs`, oldest first. */
  abstract openOrders(userId: string, withinMs: number): Promise<Order[]>;
  /**
   * Claims the order's look-up number `done + 1` at the gateway: only while `done` were made and the
   * order is at least `afterMs` old (by the database clock); false when not (too early, or taken).
   */
  abstract claimLookup(id: string, done: number, afterMs: number): Promise<boolean>;
  abstract findById(id: string): Promise<Order | null>;
  abstract lockById(id: string): Promise<Order | null>;
  abstract lockBySession(sessionId: string): Promise<Order | null>;
  abstract lockByPaymentRef(paymentRef: string): Promise<Order | null>;
  /** Applies the changes, only while the order's status is one of `from` (when given); false when it was not. */
  abstract update(id: string, changes: OrderChanges, from?: readonly OrderStatus[]): Promise<boolean>;
  abstract listForUser(userId: string, page: number, pageSize: number): Promise<{ items: Order[]; total: number }>;
  /**
   * Remembers a gateway event (and its order, once known); false when it was seen before (then it
   * must change nothing). `problem`: why a signed event was refused unapplied (the admin lists those).
   */
  abstract recordEvent(id: string, type: string, problem?: string): Promise<boolean>;
  /** Signed events refused unapplied, newest first. */
  abstract refusedEvents(page: number, pageSize: number): Promise<{ items: RefusedEvent[]; total: number }>;
  /** Names the order a recorded event belonged to (the admin order page lists them). */
  abstract linkEvent(id: string, orderId: string): Promise<void>;
  /**
   * Holds this refund idempotency key until the transaction ends (inside inTransaction): a
   * concurrent refund with the same key, on any order, waits here, then finds the first one's
   * record, so the gateway is called once per key.
   */
  abstract holdRefundKey(idempotencyKey: string): Promise<void>;
  /** The admin refund made with this idempotency key, if any. */
  abstract findRefund(idempotencyKey: string): Promise<OrderRefund | null>;
  abstract recordRefund(refund: Omit<OrderRefund, 'createdAt'>): Promise<void>;
  /** An order's admin refunds and gateway events, oldest first. */
  abstract trail(orderId: string): Promise<{ refunds: OrderRefund[]; events: { id: string; type: string; receivedAt: Date }[] }>;
  /** Admin search: by the buyer's address (part of it), the order number (part of it) and status. */
  abstract search(filter: OrderSearch, page: number, pageSize: number): Promise<{ items: (Order & { email: string | null })[]; total: number }>;
  /** Pending orders created before `before` become expired; returns how many. */
  abstract expirePending(before: Date): Promise<number>;
}
