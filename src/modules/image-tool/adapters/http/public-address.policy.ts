import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a server-side fetch may connect to: public unicast only. Checked on every
 * address we would connect to (IP literals in URLs and every DNS answer), so it is written against
 * canonical forms only; the WHATWG URL parser and getaddrinfo produce those.
 */

type Range = { label: string; base: bigint; bits: number };

const v4 = (cidr: string, label: string): Range => {
  const [address = '', bits = ''] = cidr.split('/');
  return { label, base: ipv4ToBigInt(address), bits: Number(bits) };
};
const v6 = (cidr: string, label: string): Range => {
  const [address = '', bits = ''] = cidr.split('/');
  return { label, base: ipv6ToBigInt(address), bits: Number(bits) };
};

// Most specific first where ranges nest (broadcast inside 240/4), so the log names the right one.
const IPV4_BLOCKED: Range[] = [
  v4('0.0.0.0/32', 'unspecified'),
  v4('0.0.0.0/8', '"this network"'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignment'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

// Ranges that carry an IPv4 address in their low 32 bits: named with the embedded address too.
const IPV6_EMBEDDING_V4: Range[] = [
  v6('::ffff:0:0/96', 'IPv4-mapped'),
  v6('64:ff9b::/96', 'NAT64'),
  v6('::ffff:0:0:0/96', 'IPv4-translated'),
];

const IPV6_BLOCKED: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::/96', 'IPv4-compatible'),
  v6('64:ff9b:1::/48', 'local-use NAT64'),
  v6('100::/64', 'discard-only'),
  v6('2001::/32', 'Teredo'),
  v6('2001:2::/48', 'benchmarking'),
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'IETF protocol assignment'),
  v6('2002::/16', '6to4'),
  v6('3fff::/20', 'documentation'),
  v6('5f00::/16', 'segment routing'),
  v6('fc00::/7', 'unique-local (private)'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
];

// Only 2000::/3 is allocated as global unicast; everything else is special or unassigned.
const IPV6_GLOBAL_UNICAST = v6('2000::/3', 'global unicast');

/**
 * Why `address` must not be connected to ('private address 10.0.0.1'), or null when it is public
 * unicast. Anything that is not a canonical IP address is refused.
 */
export function nonPublicAddressReason(address: string): string | null {
  if (isIPv4(address)) {
    const range = find(IPV4_BLOCKED, ipv4ToBigInt(address), 32);
    return range ? `${range.label} address ${address}` : null;
  }
  if (address.includes('%')) return `scoped IPv6 address ${address}`;
  if (isIPv6(address)) {
    const value = ipv6ToBigInt(address);
    const embedding = find(IPV6_EMBEDDING_V4, value, 128);
    if (embedding) {
      // Refused even when the embedded address is public: no honest DNS answer looks like this.
      const embedded = bigIntToIpv4(value & 0xffffffffn);
      const inner = nonPublicAddressReason(embedded) ?? `public address ${embedded}`;
      return `${embedding.label} address ${address} (embeds ${inner})`;
    }
    const range = find(IPV6_BLOCKED, value, 128);
    if (range) return `${range.label} address ${address}`;
    if (!inRange(IPV6_GLOBAL_UNICAST, value, 128)) return `reserved address ${address}`;
    return null;
  }
  return `not an IP address: ${JSON.stringify(address)}`;
}

function find(ranges: Range[], value: bigint, width: number): Range | undefined {
  return ranges.find((range) => inRange(range, value, width));
}

function inRange(range: Range, value: bigint, width: number): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigIntToIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** Canonical or not, as long as `isIPv6` accepts it: '::' expanded, a dotted-quad tail allowed. */
function ipv6ToBigInt(address: string): bigint {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const quad = ipv4ToBigInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}
