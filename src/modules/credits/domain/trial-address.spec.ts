import { trialAddress } from './trial-address';

describe('trialAddress', () => {
  it.each([
    ['Ann+promo@Example.com', 'ann@example.com'],
    ['ann@example.com', 'ann@example.com'],
    ['a.n.n+x+y@example.com', 'a.n.n@example.com'],
    ['A.nn+1@googlemail.com', 'ann@gmail.com'],
    ['an.n@gmail.com', 'ann@gmail.com'],
  ])('counts %s as %s', (email, address) => {
    expect(trialAddress(email)).toBe(address);
  });
});
