import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token';

const user = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('unsubscribe links', () => {
  it('reads back the account and kind it was made for', () => {
    expect(readUnsubscribeToken('key', unsubscribeToken('key', user, 'expiry'))).toEqual({ userId: user, kind: 'expiry' });
  });

  it('refuses a forged, altered or foreign-key token', () => {
    const token = unsubscribeToken('key', user, 'low_balance');
    expect(readUnsubscribeToken('other key', token)).toBeNull();
    expect(readUnsubscribeToken('key', token.replace('low_balance', 'expiry'))).toBeNull();
    expect(readUnsubscribeToken('key', token.replace(user, '00000000-0000-4000-8000-000000000000'))).toBeNull();
    expect(readUnsubscribeToken('key', `${token}x`)).toBeNull();
    expect(readUnsubscribeToken('key', 'garbage')).toBeNull();
  });
});
