import { randomInt } from 'node:crypto';

/** Crockford's base 32: no I, L, O or U, so a number read over the phone is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The number people see on an order: ORD- and 8 random characters (40 bits). */
export function newOrderNumber(): string {
  let suffix = '';
  for (let i = 0; i < 8; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `ORD-${suffix}`;
}
