import { selfRefundRefusal } from './self-refund';

const rule = { windowDays: 14, maxUsedPercent: 10 };
const now = new Date('2026-11-28T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const pack = { kind: 'pack' as const, status: 'paid' as const, paidAt: daysAgo(3), credits: 100 };

describe('the self-service refund rule', () => {
  it('allows a pack paid inside the window with less than the share used', () => {
    expect(selfRefundRefusal(pack, 9, rule, now)).toBeNull();
    expect(selfRefundRefusal({ ...pack, paidAt: daysAgo(14) }, 0, rule, now)).toBeNull();
  });

  it('refuses outside the window, in its numbers', () => {
    expect(selfRefundRefusal({ ...pack, paidAt: daysAgo(14.01) }, 0, rule, now)).toBe('It was paid more than 14 days ago.');
  });

  it('refuses at the usage limit and above', () => {
    expect(selfRefundRefusal(pack, 10, rule, now)).toBe('10 of its 100 credits are used: 10% or more.');
  });

  it('refuses donations, refunded and unpaid orders, and everything with a window of 0', () => {
    expect(selfRefundRefusal({ ...pack, kind: 'donation' }, 0, rule, now)).toBe('Donations are not refundable from this page.');
    expect(selfRefundRefusal({ ...pack, status: 'refunded' }, 0, rule, now)).toBe('This order was refunded already.');
    expect(selfRefundRefusal({ ...pack, status: 'pending', paidAt: null }, 0, rule, now)).toBe('Only a paid order can be refunded.');
    expect(selfRefundRefusal(pack, 0, { ...rule, windowDays: 0 }, now)).toMatch(/not offered/);
  });
});
