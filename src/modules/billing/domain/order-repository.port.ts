import type { OrderStatus } from 'src/contracts/billing';
import type { Order } from './order';

export type NewOrder = Pick<Order, 'userId' | 'kind' | 'packId' | 'description' | 'credits' | 'validityDays' | 'amountCents' | 'gateway'>;

export type OrderChanges = Partial<
  Pick<Order, 'status' | 'refundedCents' | 'creditsRevoked' | 'gatewaySessionId' | 'gatewayPaymentRef' | 'paymentMethod' | 'paidAt'>
>;

/** Orders and the gateway events already applied. The `lock*` reads take a row lock: call them inside inTransaction. */
export abstract class OrderRepository {
  /** Runs `work` in one database transaction; the ledger and this repository join it. */
  abstract inTransaction<T>(work: () => Promise<T>): Promise<T>;
  abstract create(order: NewOrder): Promise<Order>;
  abstract findById(id: string): Promise<Order | null>;
  abstract lockById(id: string): Promise<Order | null>;
  abstract lockBySession(sessionId: string): Promise<Order | null>;
  abstract lockByPaymentRef(paymentRef: string): Promise<Order | null>;
  /** Applies the changes, only while the order's status is one of `from` (when given); false when it was not. */
  abstract update(id: string, changes: OrderChanges, from?: readonly OrderStatus[]): Promise<boolean>;
  abstract listForUser(userId: string, page: number, pageSize: number): Promise<{ items: Order[]; total: number }>;
  abstract list(filter: { status?: OrderStatus }, page: number, pageSize: number): Promise<{ items: Order[]; total: number }>;
  /** Remembers a gateway event; false when it was seen before (then it must change nothing). */
  abstract recordEvent(id: string, type: string): Promise<boolean>;
  /** Pending orders created before `before` become expired; returns how many. */
  abstract expirePending(before: Date): Promise<number>;
}
