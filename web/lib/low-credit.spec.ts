import { isInsufficientCredits, lowCreditStore, showLowCredit } from './low-credit';

describe('low-credit trigger', () => {
  const body = { errors: ['Not enough credits'], code: 'CREDITS.INSUFFICIENT' as const, balance: 0, has_paid: false };

  it('recognises only a 402 with the insufficient-credits code', () => {
    expect(isInsufficientCredits(402, body)).toBe(true);
    expect(isInsufficientCredits(400, body)).toBe(false);
    expect(isInsufficientCredits(402, { ...body, code: 'REQUEST.INVALID' })).toBe(false);
    expect(isInsufficientCredits(402, null)).toBe(false);
  });

  it('holds the body until the modal closes', () => {
    const listener = jest.fn();
    const unsubscribe = lowCreditStore.subscribe(listener);
    showLowCredit(body);
    expect(lowCreditStore.get()).toBe(body);
    lowCreditStore.close();
    expect(lowCreditStore.get()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
