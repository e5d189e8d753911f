import type { IncomingMessage } from 'node:http';
import { canReadMetrics } from './metrics-http.adapter';

const TOKEN = 'a-metrics-token-of-some-length';
const from = (remoteAddress: string | undefined, headers: Record<string, string> = {}) =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('who may read the metrics', () => {
  describe('without METRICS_TOKEN: this machine only, by the socket address', () => {
    it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('lets %s in', (address) => {
      expect(canReadMetrics(undefined, from(address))).toBe(true);
    });

    it.each(['192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', 'fd00::2', '::', '0.0.0.0', '127.0.0.1.example', undefined])('keeps %s out', (address) => {
      expect(canReadMetrics(undefined, from(address))).toBe(false);
    });

    it('keeps out a request a proxy on this machine forwarded, whatever the header says', () => {
      expect(canReadMetrics(undefined, from('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
      expect(canReadMetrics(undefined, from('127.0.0.1', { forwarded: 'for=127.0.0.1' }))).toBe(false);
      expect(canReadMetrics(undefined, from('127.0.0.1', { 'x-real-ip': '127.0.0.1' }))).toBe(false);
    });

    it('ignores a bearer token (there is none to match)', () => {
      expect(canReadMetrics(undefined, from('192.0.2.2', { authorization: 'Bearer anything-at-all' }))).toBe(false);
    });
  });

  describe('with METRICS_TOKEN: the bearer token, from anywhere', () => {
    it('lets the right token in, from any address', () => {
      expect(canReadMetrics(TOKEN, from('192.0.2.2', { authorization: `Bearer ${TOKEN}` }))).toBe(true);
      expect(canReadMetrics(TOKEN, from('192.0.2.2', { authorization: `bearer ${TOKEN}` }))).toBe(true);
    });

    it.each([
      ['no header', undefined],
      ['a wrong token', 'Bearer a-metrics-token-of-some-lengtH'],
      ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
      ['the token with more after it', `Bearer ${TOKEN}x`],
      ['another scheme', `Basic ${TOKEN}`],
      ['the bare token', TOKEN],
    ])('keeps out %s, even from loopback', (_, authorization) => {
      expect(canReadMetrics(TOKEN, from('127.0.0.1', authorization === undefined ? {} : { authorization }))).toBe(false);
    });
  });
});
