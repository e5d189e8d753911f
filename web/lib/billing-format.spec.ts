import { ORDER_STATUSES, type OrderView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { interpolate } from 'web/i18n/i18n';
import account from 'web/i18n/messages/account/en';
import { checkDonation, keepPolling, LEDGER_KIND_KEYS, ORDER_STATUS_KEYS, orderNotes, orderStatusTone, pageHref, pageParam, POLL_LIMIT_MS, signedNumber, usageChart, wasPaid } from './billing-format';

const limits = { min_usd: 1, max_usd: 500 };

describe('billing formatting', () => {
  it('gives pending, paid, partly and fully refunded orders badges of their own colours', () => {
    const tones = (['pending', 'paid', 'partially_refunded', 'refunded', 'disputed'] as const).map(orderStatusTone);
    expect(new Set(tones).size).toBe(tones.length);
  });

  it('names every order status in words', () => {
    expect(ORDER_STATUSES.map((status) => account[ORDER_STATUS_KEYS[status]])).toEqual([
      'Pending',
      'Paid',
      'Partially refunded',
      'Refunded',
      'Disputed',
      'Canceled',
      'Expired',
      'Failed',
    ]);
  });

  it('says in plain words what became of an order after it was paid: taken back (and how many were already used), a dispute closed, a refund failed', () => {
    const order = { credits_to_take_back: 0, credits_taken_back: 0, dispute_won_at: null, refund_failed_cents: 0 } as unknown as OrderView;
    const words = (changes: Partial<OrderView>) => orderNotes({ ...order, ...changes }, formatUsd).map((note) => interpolate(account[note.key], note.values));
    expect(words({})).toEqual([]);
    expect(words({ credits_to_take_back: 500, credits_taken_back: 500 })).toEqual(['Credits taken back: 500']);
    expect(words({ credits_to_take_back: 500, credits_taken_back: 2 })).toEqual(['Credits taken back: 2 of 500 (498 were already used)']);
    expect(words({ dispute_won_at: '2026-11-25T10:00:00.000Z' })).toEqual(['Dispute closed, the payment stands: credits given back']);
    expect(words({ refund_failed_cents: 999 })).toEqual(['Refund of $9.99 failed: credits given back']);
    expect(account[LEDGER_KIND_KEYS.restore]).toBe('Restored');
  });

  it('accepts whole dollars from $1 to $500 as a donation', () => {
    expect(checkDonation('1', limits)).toEqual({ usd: 1 });
    expect(checkDonation(' 500 ', limits)).toEqual({ usd: 500 });
    expect(checkDonation('0', limits)).toEqual({ problem: 'pricing.donateMin' });
    expect(checkDonation('501', limits)).toEqual({ problem: 'pricing.donateMax' });
    for (const bad of ['', '1.5', '-2', 'ten', '1e2', '99999999']) expect(checkDonation(bad, limits)).toEqual({ problem: 'pricing.donateWhole' });
  });

  it('polls a pending order for two minutes at most, and a settled one not at all', () => {
    expect(keepPolling({ status: 'pending' }, 0, 2000)).toBe(true);
    expect(keepPolling({ status: 'pending' }, 0, POLL_LIMIT_MS)).toBe(false);
    expect(keepPolling({ status: 'paid' }, 0, 2000)).toBe(false);
    expect(wasPaid({ status: 'partially_refunded' })).toBe(true);
    expect(wasPaid({ status: 'canceled' })).toBe(false);
  });

  it('reads and writes ?page=N', () => {
    expect(pageParam('?page=3')).toBe(3);
    expect(pageParam('?order=x')).toBe(1);
    expect(pageParam('?page=0')).toBe(1);
    expect(pageParam('?page=abc')).toBe(1);
    expect(pageHref('/billing', 1)).toBe('/billing');
    expect(pageHref('/billing', 2)).toBe('/billing?page=2');
  });

  it('signs credit changes', () => {
    expect(signedNumber(1500, 'en-US')).toBe('+1,500');
    expect(signedNumber(-1, 'en-US')).toBe('−1');
    expect(signedNumber(0, 'en-US')).toBe('0');
  });

  it('scales the usage chart to the busiest day, keeping small days visible', () => {
    const daily = [
      { date: '2026-11-01', credits: 0 },
      { date: '2026-11-02', credits: 100 },
      { date: '2026-11-03', credits: 1 },
      { date: '2026-11-04', credits: 50 },
    ];
    const chart = usageChart(daily, 400, 100);
    expect(chart.max).toBe(100);
    expect(chart.total).toBe(151);
    expect(chart.busiest?.date).toBe('2026-11-02');
    expect(chart.bars.map((bar) => bar.height)).toEqual([0, 100, 2, 50]);
    expect(chart.bars[1]).toMatchObject({ x: 115, y: 0, width: 70 });
    expect(chart.bars[3]!.y).toBe(50);
  });

  it('draws an empty chart for a month without use', () => {
    const chart = usageChart([{ date: '2026-11-01', credits: 0 }], 600, 160);
    expect(chart).toMatchObject({ max: 0, total: 0, busiest: undefined });
    expect(chart.bars[0]!.height).toBe(0);
    expect(usageChart([], 600, 160).bars).toEqual([]);
  });
});
