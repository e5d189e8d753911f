import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import * as zlib from 'node:zlib';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { ImageFetcher } from 'src/modules/image-tool/domain/image-fetcher.port';
import { ImageFetchError } from 'src/modules/image-tool/domain/image-tool.errors';
import { nonPublicAddressReason } from 'src/modules/image-tool/adapters/http/public-address.policy';

/** The production limits; tests may only tighten them. */
export const IMAGE_FETCH_LIMITS = {
  /** DNS, TCP and TLS of one hop. */
  connectTimeoutMs: 3_000,
  /** Everything, all hops, body included. */
  totalTimeoutMs: 10_000,
  /** Decoded body bytes (and raw bytes, for compressed bodies). */
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 3,
} as const;

export type ImageFetchLimits = { -readonly [K in keyof typeof IMAGE_FETCH_LIMITS]: number };

export const MAX_IMAGE_URL_LENGTH = 2048;
const ALLOWED_PORTS = new Set([80, 443]);
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SafeHttpImageFetcherOptions {
  /**
   * Resolver used instead of `dns.lookup` (tests). It is called with `all: true`, and every
   * address it answers is still checked.
   */
  lookup?: LookupFunction;
  /**
   * Tests only: connections to 127.0.0.1 (that exact address) on this one port (>= 1024) are let
   * through, so a test can serve images locally; every other rule stays on.
   */
  allowLoopbackForTests?: { port: number };
  /** Tighter limits for tests; a limit above the production value is refused. */
  limits?: Partial<ImageFetchLimits>;
}

/** One checked hop: where to connect and on which port. */
interface Target {
  url: URL;
  /** Hostname without IPv6 brackets. */
  host: string;
  port: number;
}

type HopResult = { kind: 'image'; bytes: Buffer; contentType: string } | { kind: 'redirect'; location: string };

/**
 * ImageFetcher over node:http(s) with request-filtering-agent agents (the global fetch ignores
 * agents). Every rule is checked on every hop; addresses are checked at connect time, in the
 * agent's lookup, so a DNS answer cannot change between the check and the connection.
 */
export class SafeHttpImageFetcher extends ImageFetcher {
  private readonly limits: ImageFetchLimits;
  private readonly testPort: number | undefined;
  private readonly resolve: LookupFunction;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(options: SafeHttpImageFetcherOptions = {}) {
    super();
    this.limits = { ...IMAGE_FETCH_LIMITS };
    for (const [name, value] of Object.entries(options.limits ?? {}) as [keyof ImageFetchLimits, number | undefined][]) {
      if (value === undefined) continue;
      if (!(name in IMAGE_FETCH_LIMITS) || !Number.isInteger(value) || value < 0 || value > IMAGE_FETCH_LIMITS[name]) {
        throw new Error(`SafeHttpImageFetcher: limit ${name}=${value} is not an integer within 0..${IMAGE_FETCH_LIMITS[name]}`);
      }
      this.limits[name] = value;
    }
    const testPort = options.allowLoopbackForTests?.port;
    if (testPort !== undefined && !(Number.isInteger(testPort) && testPort >= 1024 && testPort <= 65535)) {
      throw new Error(`SafeHttpImageFetcher: allowLoopbackForTests.port must be a port in 1024..65535, got ${testPort}`);
    }
    this.testPort = testPort;
    this.resolve = options.lookup ?? (dnsLookup as LookupFunction);
    // The agents' own filter (ipaddr.js ranges) is a second line behind ours; in test mode it must
    // let 127.0.0.1 through, and our lookup then holds that address to the one test port.
    const filter = testPort === undefined ? {} : { allowIPAddressList: ['127.0.0.1'] };
    this.httpAgent = new RequestFilteringHttpAgent({ keepAlive: false, ...filter });
    this.httpsAgent = new RequestFilteringHttpsAgent({ keepAlive: false, ...filter });
  }

  async fetch(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string }> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new ImageFetchError(`total deadline of ${this.limits.totalTimeoutMs} ms exceeded`)),
      this.limits.totalTimeoutMs,
    );
    const onCallerAbort = () => deadline.abort(new ImageFetchError('aborted by the caller'));
    if (signal?.aborted) onCallerAbort();
    else signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let target = this.check(url);
      for (let redirects = 0; ; redirects++) {
        const result = await this.hop(target, deadline.signal);
        if (result.kind === 'image') return { bytes: result.bytes, contentType: result.contentType };
        if (redirects >= this.limits.maxRedirects) {
          throw new ImageFetchError(`too many redirects (more than ${this.limits.maxRedirects})`);
        }
        target = this.check(result.location, target.url);
      }
    } catch (error) {
      throw toFetchError(error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The rules that need no DNS: scheme, credentials, port, length, host names, IP literals. */
  private check(raw: string, base?: URL): Target {
    if (raw.length > MAX_IMAGE_URL_LENGTH) throw new ImageFetchError(`URL longer than ${MAX_IMAGE_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      throw new ImageFetchError(`invalid URL ${JSON.stringify(raw.slice(0, 200))}`);
    }
    // A relative Location can grow past the limit once resolved.
    if (url.href.length > MAX_IMAGE_URL_LENGTH) throw new ImageFetchError(`URL longer than ${MAX_IMAGE_URL_LENGTH} characters`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageFetchError(`scheme ${url.protocol} not allowed`);
    if (url.username || url.password) throw new ImageFetchError('credentials in the URL');
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!ALLOWED_PORTS.has(port) && port !== this.testPort) throw new ImageFetchError(`port ${port} not allowed`);
    // The WHATWG parser has already lowercased, IDNA-mapped and turned every IPv4 spelling
    // (decimal, octal, hex, short) into dotted decimal and IPv6 into its canonical form.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(host)) {
      this.checkAddress(host, port);
    } else {
      const name = host.endsWith('.') ? host.slice(0, -1) : host;
      if (name === 'localhost' || name.endsWith('.localhost')) throw new ImageFetchError(`local host name ${host}`);
      // Single labels resolve through search domains to internal services ('redis', 'metadata').
      if (!name.includes('.')) throw new ImageFetchError(`single-label host name ${JSON.stringify(host)}`);
    }
    return { url, host, port };
  }

  /** Throws unless `address` may be connected to on `port`. */
  private checkAddress(address: string, port: number): void {
    if (this.testPort !== undefined && port === this.testPort) {
      if (address === '127.0.0.1') return;
      throw new ImageFetchError(`port ${port} is only for 127.0.0.1 in tests, not ${address}`);
    }
    const reason = nonPublicAddressReason(address);
    if (reason) throw new ImageFetchError(reason);
  }

  /** Resolves every address (whatever the caller asked for) and refuses the lot if one is bad. */
  private checkedLookup(port: number): LookupFunction {
    return (hostname: string, options: LookupOptions, callback) => {
      const all: LookupAllOptions = { ...options, all: true };
      this.resolve(hostname, all, (error, answer) => {
        if (error) return callback(new ImageFetchError(`DNS lookup of ${hostname} failed: ${error.code ?? error.message}`), '', 0);
        const addresses: LookupAddress[] = Array.isArray(answer)
          ? answer
          : [{ address: answer, family: isIP(answer) }];
        if (addresses.length === 0) return callback(new ImageFetchError(`DNS lookup of ${hostname} returned no address`), '', 0);
        try {
          for (const { address } of addresses) this.checkAddress(address, port);
        } catch (refusal) {
          const reason = refusal instanceof ImageFetchError ? refusal.reason : String(refusal);
          return callback(new ImageFetchError(`${reason} (DNS answer for ${hostname})`), '', 0);
        }
        if (options.all) return callback(null, addresses);
        const [first] = addresses as [LookupAddress];
        return callback(null, first.address, first.family);
      });
    };
  }

  /** One request: an image, a redirect to follow, or an ImageFetchError. */
  private hop(target: Target, signal: AbortSignal): Promise<HopResult> {
    signal.throwIfAborted();
    const secure = target.url.protocol === 'https:';
    return new Promise<HopResult>((resolve, reject) => {
      let settled = false;
      let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
      /** True the first time only: later events of a settled hop are ignored. */
      const settle = () => {
        if (settled) return false;
        settled = true;
        clearTimeout(connectTimer);
        signal.removeEventListener('abort', onAbort);
        return true;
      };
      const succeed = (result: HopResult) => {
        if (settle()) resolve(result);
      };
      const fail = (error: unknown) => {
        if (!settle()) return;
        decoder?.destroy();
        req.destroy();
        reject(error);
      };
      const onAbort = () => fail(signal.reason);

      const req = (secure ? https : http).request({
        protocol: target.url.protocol,
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.checkedLookup(target.port),
        headers: {
          accept: [...IMAGE_TYPES].join(', '),
          'accept-encoding': 'identity',
          'user-agent': 'image-tool/1.0',
        },
      });
      const connectTimer = setTimeout(
        () => fail(new ImageFetchError(`connect deadline of ${this.limits.connectTimeoutMs} ms exceeded`)),
        this.limits.connectTimeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', fail);
      req.on('socket', (socket: Socket) => socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer)));
      req.on('response', (res: http.IncomingMessage) => {
        clearTimeout(connectTimer);
        res.on('error', (error) => fail(new ImageFetchError(`response failed: ${error.message}`)));
        const status = res.statusCode ?? 0;
        if (REDIRECT_STATUSES.has(status)) {
          const location = res.headers.location;
          if (!location) return fail(new ImageFetchError(`redirect ${status} without Location`));
          res.resume();
          succeed({ kind: 'redirect', location });
          return req.destroy();
        }
        if (status < 200 || status > 299) return fail(new ImageFetchError(`HTTP status ${status}`));
        const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (!IMAGE_TYPES.has(contentType)) {
          return fail(new ImageFetchError(contentType ? `content type ${contentType} not accepted` : 'no content type'));
        }
        const max = this.limits.maxBytes;
        const declared = res.headers['content-length'];
        if (declared !== undefined && Number(declared) > max) {
          return fail(new ImageFetchError(`body over ${sizeLabel(max)} (Content-Length ${declared})`));
        }
        const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        try {
          decoder = makeDecoder(encoding);
        } catch (error) {
          return fail(error);
        }
        if (decoder) {
          let raw = 0;
          res.on('data', (chunk: Buffer) => {
            raw += chunk.length;
            if (raw > max) fail(new ImageFetchError(`body over ${sizeLabel(max)} before ${encoding} decoding`));
          });
        }
        const chunks: Buffer[] = [];
        let total = 0;
        const body = decoder ? res.pipe(decoder) : res;
        const suffix = decoder ? ` after ${encoding} decoding` : '';
        body.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > max) return fail(new ImageFetchError(`body over ${sizeLabel(max)}${suffix}`));
          chunks.push(chunk);
        });
        if (decoder) decoder.on('error', (error) => fail(new ImageFetchError(`bad ${encoding} body: ${error.message}`)));
        body.on('end', () => {
          if (!res.complete) return fail(new ImageFetchError('connection closed before the whole body arrived'));
          succeed({ kind: 'image', bytes: Buffer.concat(chunks, total), contentType });
        });
      });
      req.end();
    });
  }
}

function makeDecoder(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding) {
    case 'identity':
    case '':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new ImageFetchError(`content encoding ${JSON.stringify(encoding)} not supported`);
  }
}

function sizeLabel(bytes: number): string {
  const mb = 1024 * 1024;
  return bytes % mb === 0 ? `${bytes / mb} MB` : `${bytes} bytes`;
}

function toFetchError(error: unknown): ImageFetchError {
  if (error instanceof ImageFetchError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  // request-filtering-agent's own refusals ('DNS lookup 10.0.0.1(...) is not allowed').
  if (typeof message === 'string' && message.includes('is not allowed')) return new ImageFetchError(`request filter: ${message}`);
  return new ImageFetchError(`network error: ${code ?? message ?? String(error)}`);
}
