import * as dns from 'node:dns';
import { createServer, type Server, type ServerResponse } from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { SafeHttpImageFetcher, type ImageFetchLimits } from 'src/modules/image-tool/adapters/http/safe-http-image-fetcher.adapter';
import { ImageFetchError } from 'src/modules/image-tool/domain/image-tool.errors';

/*
 * SafeHttpImageFetcher against real HTTP servers on 127.0.0.1 and an injected resolver. A guard on
 * net.Socket#connect records every connection the process opens and fails the test that opens one
 * to anything but 127.x (or that asks the real DNS): a refusal must happen before connecting.
 */

const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The connection guard

type ConnectOptions = { host?: string; port?: number | string; path?: string | null; lookup?: net.LookupFunction };
type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket;

const isLoopbackV4 = (address: string) => net.isIPv4(address) && address.startsWith('127.');

/**
 * Wraps Socket#connect: IP targets must be 127.x; host names must come with a lookup (never the
 * real DNS) whose every answer is 127.x. Anything else is recorded and the socket destroyed before
 * `real` is reached.
 */
function createConnectGuard(real: Connect) {
  const connections: string[] = [];
  const violations: string[] = [];
  const refuse = (socket: net.Socket, what: string) => {
    violations.push(what);
    socket.destroy(new Error(`connect guard: ${what}`));
    return socket;
  };
  const connect: Connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect hands over [options, cb] as one normalized array; user code passes the parts.
    let options: ConnectOptions;
    if (Array.isArray(args[0])) options = args[0][0] as ConnectOptions;
    else if (typeof args[0] === 'object' && args[0] !== null) options = args[0] as ConnectOptions;
    else options = { port: args[0] as number, host: typeof args[1] === 'string' ? args[1] : undefined };
    if (options.path) return refuse(this, `unix socket ${options.path}`);
    const host = options.host ?? 'localhost';
    if (net.isIP(host)) {
      if (!isLoopbackV4(host)) return refuse(this, `connection to ${host}:${options.port}`);
      connections.push(`${host}:${options.port}`);
      return real.apply(this, args);
    }
    const inner = options.lookup;
    if (!inner) return refuse(this, `real DNS lookup of ${host}`);
    options.lookup = (hostname, lookupOptions, callback) =>
      inner(hostname, lookupOptions, (error, answer, family) => {
        if (error) return callback(error, answer, family);
        const addresses = Array.isArray(answer) ? answer.map((a) => a.address) : [answer];
        const outside = addresses.filter((address) => !isLoopbackV4(address));
        if (outside.length > 0) {
          violations.push(`connection to ${outside.join(', ')} (${hostname}):${options.port}`);
          return callback(new Error('connect guard: non-loopback answer'), '', 0);
        }
        connections.push(`${addresses.join(',')}:${options.port}`);
        return callback(null, answer, family);
      });
    if (!Array.isArray(args[0]) && typeof args[0] === 'object') args[0] = options;
    return real.apply(this, args);
  };
  return { connect, connections, violations };
}

const realConnect = net.Socket.prototype.connect as unknown as Connect;
const guard = createConnectGuard(realConnect);
const realDnsLookup = dns.lookup;

// ---------------------------------------------------------------------------------------------
// Servers and resolver

let png: Buffer;
let server: Server;
let otherServer: Server;
let P: number; // the port the test fetcher may reach on 127.0.0.1
let Q: number; // another local server, on a port nobody may reach

const resolverCalls: string[] = [];
const DNS: Record<string, string[]> = {
  'images.test': ['127.0.0.1'],
  'images.test.': ['127.0.0.1'],
  'internal.test': ['10.0.0.5'],
  'metadata.google.internal.': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed-loopback.test': ['127.0.0.1', '10.0.0.1'],
  'rebind.test': ['127.0.0.1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'zero.test': ['0.0.0.0'],
  'cgnat.test': ['100.64.0.1'],
  'public.test': ['93.184.216.34'],
  'empty.test': [],
};

/** A dns.lookup stand-in: the table above; 'hang.test' never answers. */
const resolver: net.LookupFunction = (hostname, options, callback) => {
  resolverCalls.push(hostname);
  if (hostname === 'hang.test') return;
  const addresses = DNS[hostname];
  process.nextTick(() => {
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    const answer = addresses.map((address) => ({ address, family: net.isIP(address) }));
    if (options.all) return callback(null, answer);
    return callback(null, answer[0]?.address ?? '', answer[0]?.family ?? 4);
  });
};

const testFetcher = (limits?: Partial<ImageFetchLimits>) =>
  new SafeHttpImageFetcher({ lookup: resolver, allowLoopbackForTests: { port: P }, limits });

const withPorts = (text: string) => text.replaceAll('{P}', String(P)).replaceAll('{Q}', String(Q));

/** The ImageFetchError `promise` rejects with. */
async function refusal(promise: Promise<unknown>): Promise<ImageFetchError> {
  const error = await promise.then(
    () => new Error('expected a refusal, the fetch succeeded'),
    (e: unknown) => e,
  );
  if (!(error instanceof ImageFetchError)) throw error;
  return error;
}

function endless(res: ServerResponse, chunk: Buffer) {
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

function route(url: URL, res: ServerResponse) {
  const [, first, second] = url.pathname.split('/');
  const image = (type = 'image/png', body = png, headers: Record<string, string> = {}) => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length), ...headers });
    res.end(body);
  };
  switch (first) {
    case 'img.png':
      return image();
    case 'typed': // content type from the query, body a PNG
      return image(url.searchParams.get('type') ?? '');
    case 'no-type':
      res.writeHead(200, { 'content-length': String(png.length) });
      return res.end(png);
    case 'html':
      return image('text/html; charset=utf-8', Buffer.from('<h1>hi</h1>'));
    case 'svg':
      return image('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    case 'status':
      res.writeHead(Number(second), { 'content-type': 'image/png' });
      return res.end(png);
    case 'chain': {
      // /chain/n: n relative redirects, then the image
      const n = Number(second);
      if (n === 0) return image();
      res.writeHead(302, { location: `/chain/${n - 1}` });
      return res.end();
    }
    case 'via-name':
      res.writeHead(301, { location: `http://images.test:${P}/chain/1` });
      return res.end();
    case 'redirect':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '' });
      return res.end();
    case 'no-location':
      res.writeHead(302);
      return res.end();
    case 'long-location':
      res.writeHead(302, { location: `/${'a'.repeat(2100)}` });
      return res.end();
    case 'chunked': // no Content-Length
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 10));
      return res.end(png.subarray(10));
    case 'gzip':
      return image('image/png', gzipSync(png), { 'content-encoding': 'gzip' });
    case 'deflate':
      return image('image/png', deflateSync(png), { 'content-encoding': 'deflate' });
    case 'br':
      return image('image/png', brotliCompressSync(png), { 'content-encoding': 'br' });
    case 'gzip-bomb':
      return image('image/png', gzipBomb, { 'content-encoding': 'gzip' });
    case 'br-bomb':
      return image('image/png', brBomb, { 'content-encoding': 'br' });
    case 'bad-gzip':
      return image('image/png', png, { 'content-encoding': 'gzip' });
    case 'compress':
      return image('image/png', png, { 'content-encoding': 'compress' });
    case 'big-length': // declares 20 MB, sends nothing
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(20 * MB) });
      return res.flushHeaders();
    case 'endless':
      res.writeHead(200, { 'content-type': 'image/png' });
      return endless(res, Buffer.alloc(64 * 1024, 7));
    case 'slow': {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => res.write(Buffer.from([0])), 20);
      return res.on('close', () => clearInterval(timer));
    }
    case 'truncated':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000' });
      res.write(png.subarray(0, 10));
      return setTimeout(() => res.destroy(), 20);
    default:
      res.writeHead(404);
      return res.end();
  }
}

let gzipBomb: Buffer;
let brBomb: Buffer;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<[Server, number]> {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return [s, (s.address() as AddressInfo).port];
}

const closeServer = (s: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (!s) return resolve();
    s.closeAllConnections();
    s.close(() => resolve());
  });

beforeAll(async () => {
  net.Socket.prototype.connect = guard.connect as unknown as typeof net.Socket.prototype.connect;
  // Nothing here may ask the real DNS: the fetcher must always get its lookup from the options.
  (dns as { lookup: unknown }).lookup = (hostname: string) => {
    guard.violations.push(`real dns.lookup(${hostname})`);
    throw new Error('connect guard: real DNS');
  };
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } }).png().toBuffer();
  const zeros = Buffer.alloc(11 * MB);
  gzipBomb = gzipSync(zeros, { level: 9 });
  brBomb = brotliCompressSync(zeros);
  [server, P] = await listen((req, res) => route(new URL(req.url ?? '/', 'http://x'), res));
  [otherServer, Q] = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(png);
  });
});

afterAll(async () => {
  net.Socket.prototype.connect = realConnect as unknown as typeof net.Socket.prototype.connect;
  (dns as { lookup: unknown }).lookup = realDnsLookup;
  await Promise.all([closeServer(server), closeServer(otherServer)]);
});

beforeEach(() => {
  guard.connections.length = 0;
  guard.violations.length = 0;
  resolverCalls.length = 0;
});

afterEach(() => {
  // The guard: a test that opened anything but a loopback connection fails here.
  expect(guard.violations).toEqual([]);
});

// ---------------------------------------------------------------------------------------------

describe('the connection guard itself', () => {
  it('stops a non-loopback IP before the real connect and records it', () => {
    const reached: unknown[] = [];
    const probe = createConnectGuard(function (this: net.Socket, ...args: unknown[]) {
      reached.push(args);
      return this;
    });
    const socket = new net.Socket();
    socket.on('error', () => undefined);
    probe.connect.call(socket, { host: '203.0.113.1', port: 80 });
    probe.connect.call(new net.Socket().on('error', () => undefined), { host: 'nameless.test', port: 80 });
    expect(reached).toEqual([]);
    expect(probe.violations).toEqual(['connection to 203.0.113.1:80', 'real DNS lookup of nameless.test']);
  });

  it('refuses a lookup answer outside 127.x', () => {
    let passed: ConnectOptions | undefined;
    const probe = createConnectGuard(function (this: net.Socket, ...args: unknown[]) {
      passed = args[0] as ConnectOptions;
      return this;
    });
    const lookup: net.LookupFunction = (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }, { address: '8.8.8.8', family: 4 }]);
    probe.connect.call(new net.Socket(), { host: 'x.test', port: 80, lookup });
    const outcome: unknown[] = [];
    passed?.lookup?.('x.test', { all: true }, (error) => outcome.push(error?.message));
    expect(outcome).toEqual(['connect guard: non-loopback answer']);
    expect(probe.violations).toEqual(['connection to 8.8.8.8 (x.test):80']);
  });
});

describe('SafeHttpImageFetcher: what it fetches', () => {
  it('fetches a PNG from the allowed test port by IP', async () => {
    const result = await testFetcher().fetch(`http://127.0.0.1:${P}/img.png`);
    expect(result.contentType).toBe('image/png');
    expect(result.bytes.equals(png)).toBe(true);
    expect(guard.connections).toEqual([`127.0.0.1:${P}`]);
  });

  it('fetches through the resolver, trailing dot included', async () => {
    for (const host of ['images.test', 'images.test.']) {
      const result = await testFetcher().fetch(`http://${host}:${P}/img.png`);
      expect(result.bytes.equals(png)).toBe(true);
    }
    expect(resolverCalls).toEqual(['images.test', 'images.test.']);
    expect(guard.connections).toEqual([`127.0.0.1:${P}`, `127.0.0.1:${P}`]);
  });

  it.each([
    ['image/png; charset=binary', 'image/png'],
    ['IMAGE/JPEG ; q=1', 'image/jpeg'],
    ['image/webp', 'image/webp'],
    ['image/gif;x=y', 'image/gif'],
  ])('takes content type %j as %s', async (type, expected) => {
    const result = await testFetcher().fetch(`http://127.0.0.1:${P}/typed?type=${encodeURIComponent(type)}`);
    expect(result.contentType).toBe(expected);
  });

  it('follows up to 3 redirects, relative ones resolved against the hop', async () => {
    const result = await testFetcher().fetch(`http://127.0.0.1:${P}/chain/3`);
    expect(result.bytes.equals(png)).toBe(true);
    expect(guard.connections).toHaveLength(4);
  });

  it('follows an absolute redirect to a name, resolved and checked again', async () => {
    const result = await testFetcher().fetch(`http://127.0.0.1:${P}/via-name`);
    expect(result.bytes.equals(png)).toBe(true);
    expect(resolverCalls).toEqual(['images.test', 'images.test']);
  });

  it('reads a chunked body with no Content-Length', async () => {
    expect((await testFetcher().fetch(`http://127.0.0.1:${P}/chunked`)).bytes.equals(png)).toBe(true);
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a %s body', async (encoding) => {
    expect((await testFetcher().fetch(`http://127.0.0.1:${P}/${encoding}`)).bytes.equals(png)).toBe(true);
  });
});

/**
 * Hostile URLs, refused before any connection. `{P}` is the port the test fetcher may reach on
 * 127.0.0.1, `{Q}` another local server. `dns` marks the ones the resolver has to answer first.
 */
const HOSTILE: { url: string; reason: string; dns?: true }[] = [
  // IPv4 spellings the URL parser turns into 127.0.0.1 (port 80: loopback is only let through on {P})
  { url: 'http://2130706433/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://017700000001/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://0177.0.0.1/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://0x7f.1/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://0x7f000001/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://0x7f.0x00.0x00.0x01/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://127.1/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://127.000.000.001/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://127.0.0.1/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://127.0.0.1./', reason: 'loopback address 127.0.0.1' },
  { url: 'http://%31%32%37.0.0.1/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://１２７.０.０.１/', reason: 'loopback address 127.0.0.1' },
  { url: 'http://127.0.0.2:{P}/img.png', reason: 'port {P} is only for 127.0.0.1 in tests, not 127.0.0.2' },
  // IPv6 forms
  { url: 'http://[::1]/', reason: 'loopback address ::1' },
  { url: 'http://[::1]:{P}/img.png', reason: 'port {P} is only for 127.0.0.1 in tests, not ::1' },
  { url: 'http://[::ffff:7f00:1]/', reason: 'IPv4-mapped address ::ffff:7f00:1 (embeds loopback address 127.0.0.1)' },
  { url: 'http://[::ffff:127.0.0.1]/', reason: 'IPv4-mapped address ::ffff:7f00:1 (embeds loopback address 127.0.0.1)' },
  { url: 'http://[::ffff:7f00:1]:{P}/img.png', reason: 'port {P} is only for 127.0.0.1 in tests, not ::ffff:7f00:1' },
  { url: 'http://[0:0:0:0:0:ffff:169.254.169.254]/', reason: 'IPv4-mapped address ::ffff:a9fe:a9fe (embeds link-local address 169.254.169.254)' },
  { url: 'http://[::127.0.0.1]/', reason: 'IPv4-compatible address ::7f00:1' },
  { url: 'http://[64:ff9b::a00:1]/', reason: 'NAT64 address 64:ff9b::a00:1 (embeds private address 10.0.0.1)' },
  { url: 'http://[fe80::1]/', reason: 'link-local address fe80::1' },
  { url: 'http://[fd00::1]/', reason: 'unique-local (private) address fd00::1' },
  { url: 'http://[::]/', reason: 'unspecified address ::' },
  { url: 'http://[2001:db8::1]/', reason: 'documentation address 2001:db8::1' },
  // Unspecified, private and special IPv4
  { url: 'http://0/', reason: 'unspecified address 0.0.0.0' },
  { url: 'http://0.0.0.0/', reason: 'unspecified address 0.0.0.0' },
  { url: 'http://169.254.169.254/latest/meta-data/', reason: 'link-local address 169.254.169.254' },
  { url: 'http://10.0.0.1/', reason: 'private address 10.0.0.1' },
  { url: 'http://172.16.0.1/', reason: 'private address 172.16.0.1' },
  { url: 'http://192.168.0.1/', reason: 'private address 192.168.0.1' },
  { url: 'http://100.64.0.1/', reason: 'carrier-grade NAT address 100.64.0.1' },
  { url: 'http://198.18.0.1/', reason: 'benchmarking address 198.18.0.1' },
  { url: 'http://192.0.2.1/', reason: 'documentation address 192.0.2.1' },
  { url: 'http://224.0.0.1/', reason: 'multicast address 224.0.0.1' },
  { url: 'http://255.255.255.255/', reason: 'broadcast address 255.255.255.255' },
  { url: 'http://240.0.0.1/', reason: 'reserved address 240.0.0.1' },
  { url: 'https://10.0.0.1/', reason: 'private address 10.0.0.1' },
  // Local names
  { url: 'http://localhost/', reason: 'local host name localhost' },
  { url: 'http://localhost./', reason: 'local host name localhost.' },
  { url: 'http://LOCALHOST:{P}/img.png', reason: 'local host name localhost' },
  { url: 'http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/', reason: 'local host name localhost' },
  { url: 'http://ｌｏｃａｌｈｏｓｔ/', reason: 'local host name localhost' },
  { url: 'http://images.localhost/', reason: 'local host name images.localhost' },
  { url: 'http://metadata/computeMetadata/v1/', reason: 'single-label host name "metadata"' },
  // DNS answers
  { url: 'http://internal.test/', reason: 'private address 10.0.0.5 (DNS answer for internal.test)', dns: true },
  { url: 'http://metadata.google.internal./', reason: 'link-local address 169.254.169.254 (DNS answer for metadata.google.internal.)', dns: true },
  { url: 'http://mixed.test/', reason: 'private address 10.0.0.1 (DNS answer for mixed.test)', dns: true },
  { url: 'http://mixed-loopback.test:{P}/img.png', reason: 'port {P} is only for 127.0.0.1 in tests, not 10.0.0.1 (DNS answer for mixed-loopback.test)', dns: true },
  { url: 'http://rebind.test/', reason: 'loopback address 127.0.0.1 (DNS answer for rebind.test)', dns: true },
  { url: 'http://v6-loopback.test/', reason: 'loopback address ::1 (DNS answer for v6-loopback.test)', dns: true },
  { url: 'http://mapped.test/', reason: 'IPv4-mapped address ::ffff:169.254.169.254 (embeds link-local address 169.254.169.254) (DNS answer for mapped.test)', dns: true },
  { url: 'http://nat64.test/', reason: 'NAT64 address 64:ff9b::a9fe:a9fe (embeds link-local address 169.254.169.254) (DNS answer for nat64.test)', dns: true },
  { url: 'http://zero.test/', reason: 'unspecified address 0.0.0.0 (DNS answer for zero.test)', dns: true },
  { url: 'http://cgnat.test/', reason: 'carrier-grade NAT address 100.64.0.1 (DNS answer for cgnat.test)', dns: true },
  { url: 'http://public.test:{P}/img.png', reason: 'port {P} is only for 127.0.0.1 in tests, not 93.184.216.34 (DNS answer for public.test)', dns: true },
  { url: 'https://internal.test/', reason: 'private address 10.0.0.5 (DNS answer for internal.test)', dns: true },
  { url: 'http://empty.test/', reason: 'DNS lookup of empty.test returned no address', dns: true },
  { url: 'http://nowhere.test/', reason: 'DNS lookup of nowhere.test failed: ENOTFOUND', dns: true },
  // Schemes, credentials, ports, length
  { url: 'file:///etc/passwd', reason: 'scheme file: not allowed' },
  { url: 'ftp://example.com/a.png', reason: 'scheme ftp: not allowed' },
  { url: 'gopher://127.0.0.1:6379/_INFO', reason: 'scheme gopher: not allowed' },
  { url: 'dict://127.0.0.1:11211/stat', reason: 'scheme dict: not allowed' },
  { url: 'javascript:alert(1)', reason: 'scheme javascript: not allowed' },
  { url: 'data:image/png;base64,iVBORw0KGgo=', reason: 'scheme data: not allowed' },
  { url: 'http://user:pass@images.test:{P}/img.png', reason: 'credentials in the URL' },
  { url: 'http://example.com:80@127.0.0.1/', reason: 'credentials in the URL' },
  { url: 'http://127.0.0.1:22/', reason: 'port 22 not allowed' },
  { url: 'http://images.test:6379/', reason: 'port 6379 not allowed' },
  { url: 'http://127.0.0.1:{Q}/', reason: 'port {Q} not allowed' },
  { url: 'http://images.test:0/', reason: 'port 0 not allowed' },
  { url: `http://images.test:{P}/${'a'.repeat(2100)}`, reason: 'URL longer than 2048 characters' },
  { url: 'not a url', reason: 'invalid URL "not a url"' },
  { url: 'http://[::1/', reason: 'invalid URL "http://[::1/"' },
];

describe('SafeHttpImageFetcher: hostile URLs', () => {
  it('has at least 30 of them', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE)('refuses $url', async ({ url, reason, dns: needsDns }) => {
    const error = await refusal(testFetcher().fetch(withPorts(url)));
    expect(error.reason).toBe(withPorts(reason));
    expect(guard.connections).toEqual([]);
    if (!needsDns) expect(resolverCalls).toEqual([]);
  });

  it.each(HOSTILE.filter((entry) => !entry.dns))('refuses $url with the production defaults too', async ({ url }) => {
    await refusal(new SafeHttpImageFetcher().fetch(withPorts(url)));
    expect(guard.connections).toEqual([]);
  });

  it('production defaults refuse the local test server outright', async () => {
    const error = await refusal(new SafeHttpImageFetcher().fetch(`http://127.0.0.1:${P}/img.png`));
    expect(error.reason).toBe(`port ${P} not allowed`);
  });

  it('gives the user one generic message, the log the reason', async () => {
    const error = await refusal(testFetcher().fetch('http://10.0.0.1/'));
    expect(error.code).toBe('IMAGES.FETCH_FAILED');
    expect(error.message).not.toContain('10.0.0.1');
    expect(error.message).toBe(new ImageFetchError('anything').message);
  });
});

describe('SafeHttpImageFetcher: redirects', () => {
  const redirectTo = (to: string, status = 302) => `http://127.0.0.1:${P}/redirect?status=${status}&to=${encodeURIComponent(withPorts(to))}`;

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local address 169.254.169.254'],
    ['http://[::ffff:a9fe:a9fe]/', 'IPv4-mapped address ::ffff:a9fe:a9fe (embeds link-local address 169.254.169.254)'],
    ['http://2130706433/', 'loopback address 127.0.0.1'],
    ['http://[::1]/', 'loopback address ::1'],
    ['http://127.0.0.1:22/', 'port 22 not allowed'],
    ['http://localhost:{P}/img.png', 'local host name localhost'],
    ['http://user:pw@127.0.0.1:{P}/img.png', 'credentials in the URL'],
    ['file:///etc/passwd', 'scheme file: not allowed'],
    ['gopher://127.0.0.1:6379/_INFO', 'scheme gopher: not allowed'],
    ['http://internal.test/', 'private address 10.0.0.5 (DNS answer for internal.test)'],
    ['http://127.0.0.2:{P}/img.png', 'port {P} is only for 127.0.0.1 in tests, not 127.0.0.2'],
  ])('refuses a redirect to %s', async (to, reason) => {
    const error = await refusal(testFetcher().fetch(redirectTo(to)));
    expect(error.reason).toBe(withPorts(reason));
    expect(guard.connections).toEqual([`127.0.0.1:${P}`]);
  });

  it.each([301, 303, 307, 308])('re-checks a %i hop as well', async (status) => {
    const error = await refusal(testFetcher().fetch(redirectTo('http://169.254.169.254/', status)));
    expect(error.reason).toBe('link-local address 169.254.169.254');
  });

  it('refuses a fourth redirect', async () => {
    const error = await refusal(testFetcher().fetch(`http://127.0.0.1:${P}/chain/4`));
    expect(error.reason).toBe('too many redirects (more than 3)');
    expect(guard.connections).toHaveLength(4);
  });

  it('counts the limit from the options (0: no redirect at all)', async () => {
    const error = await refusal(testFetcher({ maxRedirects: 0 }).fetch(`http://127.0.0.1:${P}/chain/1`));
    expect(error.reason).toBe('too many redirects (more than 0)');
  });

  it('refuses a redirect without Location', async () => {
    expect((await refusal(testFetcher().fetch(`http://127.0.0.1:${P}/no-location`))).reason).toBe('redirect 302 without Location');
  });

  it('refuses a relative Location that resolves past 2048 characters', async () => {
    expect((await refusal(testFetcher().fetch(`http://127.0.0.1:${P}/long-location`))).reason).toBe('URL longer than 2048 characters');
  });
});

describe('SafeHttpImageFetcher: answers it refuses', () => {
  const at = (path: string) => `http://127.0.0.1:${P}${path}`;

  it.each([
    ['/html', 'content type text/html not accepted'],
    ['/svg', 'content type image/svg+xml not accepted'],
    ['/typed?type=application/octet-stream', 'content type application/octet-stream not accepted'],
    ['/no-type', 'no content type'],
    ['/status/404', 'HTTP status 404'],
    ['/status/500', 'HTTP status 500'],
    ['/status/304', 'HTTP status 304'],
    ['/big-length', `body over 10 MB (Content-Length ${20 * MB})`],
    ['/endless', 'body over 10 MB'],
    ['/gzip-bomb', 'body over 10 MB after gzip decoding'],
    ['/br-bomb', 'body over 10 MB after br decoding'],
    ['/bad-gzip', 'bad gzip body: incorrect header check'],
    ['/compress', 'content encoding "compress" not supported'],
  ])('%s: %s', async (path, reason) => {
    expect((await refusal(testFetcher().fetch(at(path)))).reason).toBe(reason);
  });

  it('refuses a body cut short', async () => {
    expect((await refusal(testFetcher().fetch(at('/truncated')))).reason).toMatch(/^(response failed: aborted|connection closed before the whole body arrived)$/);
  });

  it('applies a lower byte limit from the options, to Content-Length and to the bytes that arrive', async () => {
    const fetcher = testFetcher({ maxBytes: 20 });
    expect((await refusal(fetcher.fetch(at('/img.png')))).reason).toBe(`body over 20 bytes (Content-Length ${png.length})`);
    expect((await refusal(fetcher.fetch(at('/chunked')))).reason).toBe('body over 20 bytes');
  });
});

describe('SafeHttpImageFetcher: deadlines and aborts', () => {
  it('gives up connecting at the connect deadline (a resolver that never answers)', async () => {
    const error = await refusal(testFetcher({ connectTimeoutMs: 100 }).fetch(`http://hang.test:${P}/img.png`));
    expect(error.reason).toBe('connect deadline of 100 ms exceeded');
  });

  it('gives up on a slow body at the total deadline', async () => {
    const error = await refusal(testFetcher({ totalTimeoutMs: 300 }).fetch(`http://127.0.0.1:${P}/slow`));
    expect(error.reason).toBe('total deadline of 300 ms exceeded');
  });

  it('stops when the caller aborts mid-body', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await refusal(testFetcher().fetch(`http://127.0.0.1:${P}/slow`, controller.signal));
    expect(error.reason).toBe('aborted by the caller');
  });

  it('does not even connect with an already aborted signal', async () => {
    const error = await refusal(testFetcher().fetch(`http://127.0.0.1:${P}/img.png`, AbortSignal.abort()));
    expect(error.reason).toBe('aborted by the caller');
    expect(guard.connections).toEqual([]);
  });
});

describe('SafeHttpImageFetcher: options cannot loosen the production rules', () => {
  it.each([
    [{ limits: { maxBytes: 20 * MB } }, /limit maxBytes=20971520/],
    [{ limits: { totalTimeoutMs: 60_000 } }, /limit totalTimeoutMs=60000/],
    [{ limits: { connectTimeoutMs: 1.5 } }, /limit connectTimeoutMs=1.5/],
    [{ limits: { maxRedirects: 10 } }, /limit maxRedirects=10/],
    [{ limits: { followForever: 1 } as Partial<ImageFetchLimits> }, /limit followForever=1/],
    [{ allowLoopbackForTests: { port: 80 } }, /allowLoopbackForTests.port/],
    [{ allowLoopbackForTests: { port: 443 } }, /allowLoopbackForTests.port/],
    [{ allowLoopbackForTests: { port: 70000 } }, /allowLoopbackForTests.port/],
  ])('refuses %j', (options, message) => {
    expect(() => new SafeHttpImageFetcher(options)).toThrow(message);
  });
});
