import { creditsForRefund, statusAfterRefund } from './order';
import { newOrderNumber } from './order-number';

describe('order rules', () => {
  const order = { credits: 500, amountCents: 999, status: 'paid' as const };

  it('takes back the refunded share of the credits, all of them for a full refund', () => {
    expect(creditsForRefund(order, 0)).toBe(0);
    expect(creditsForRefund(order, 999)).toBe(500);
    expect(creditsForRefund(order, 5000)).toBe(500);
    // Half the money: half the credits, rounded up (250.25 → 251).
    expect(creditsForRefund(order, 500)).toBe(251);
    expect(creditsForRefund({ credits: 100, amountCents: 200 }, 100)).toBe(50);
  });

  it('names the status after a cumulative refund; a dispute stays a dispute', () => {
    expect(statusAfterRefund(order, 100)).toBe('partially_refunded');
    expect(statusAfterRefund(order, 999)).toBe('refunded');
    expect(statusAfterRefund({ ...order, status: 'disputed' }, 999)).toBe('disputed');
  });

  it('numbers orders ORD- and 8 unambiguous characters', () => {
    const numbers = new Set(Array.from({ length: 1000 }, newOrderNumber));
    expect(numbers.size).toBe(1000);
    for (const number of numbers) expect(number).toMatch(/^ORD-[0-9A-HJKMNP-TV-Z]{8}$/);
  });
});
