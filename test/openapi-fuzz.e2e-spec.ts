import { PAGES } from 'web/route-table';
import { useInProcessSite } from './support/site';
import { sendFrom, type LoopbackRequest } from './support/loopback-client';

const SEED = 0x5eed_2026;
/** Under the 64 KiB body limit, so the route itself reads it. */
const BIG = 'x'.repeat(60_000);

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
}

/** mulberry32: the same sequence of inputs on every run. */
function generator(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]! };
}

/** Raw text for a path segment or a query value (already URL-encoded where it has to be). */
const HOSTILE_TEXT = [
  '',
  '0',
  '-1',
  '1.5',
  '1e309',
  '9'.repeat(400),
  String(Number.MAX_SAFE_INTEGER + 2),
  '%00',
  'a%00b',
  '%E3%80%82evil.com',
  '%F0%9F%92%A9',
  '%C3%A9t%C3%A9',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  '%2e%2e',
  '%25',
  'null',
  'true',
  '-'.repeat(40),
  '%27%3B--',
  'a'.repeat(3000),
];

/** JSON values of every type, for body fields. */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  1.5,
  '',
  '\u0000',
  '-'.repeat(40),
  '\u3002',
  BIG,
  [],
  [1, 'a', null],
  {},
  { nested: { deeper: [{}] } },
  'not-an-email',
  'https://evil.example/',
];

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A body shaped like the schema with a hostile value in every field, and in one field only. */
function shapedBodies(schema: Schema | undefined, rng: ReturnType<typeof generator>): unknown[] {
  const properties = Object.keys(schema?.properties ?? {});
  if (properties.length === 0) return [];
  const valid = (s: Schema | undefined): unknown =>
    s?.enum?.[0] ?? (s?.type === 'integer' || s?.type === 'number' ? 1 : s?.type === 'boolean' ? true : s?.type === 'array' ? [] : s?.type === 'object' ? {} : 'a');
  const bodies: unknown[] = [];
  for (let i = 0; i < 12; i++) bodies.push(Object.fromEntries(properties.map((p) => [p, rng.pick(HOSTILE_VALUES)])));
  for (const p of properties) {
    const base = Object.fromEntries(properties.map((q) => [q, valid(schema!.properties![q])]));
    bodies.push({ ...base, [p]: rng.pick(HOSTILE_VALUES) });
  }
  bodies.push({ ...Object.fromEntries(properties.map((q) => [q, valid(schema!.properties![q])])), extra: 'field' });
  return bodies;
}

/** Each probe is sent from its own loopback address, so rate limits (429) do not hide the routes. */
interface Probe {
  url: string;
  init: LoopbackRequest;
}

function probesFor(op: Operation, rng: ReturnType<typeof generator>, document: { components?: { schemas?: Record<string, Schema> } }): Probe[] {
  const probes: Probe[] = [];
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const fillPath = (value: () => string) => op.path.replace(/\{([^}]+)\}/g, () => value());
  const plainPath = op.path.replace(/\{[^}]+\}/g, '1');
  const hasBody = !['GET', 'DELETE', 'HEAD'].includes(op.method);
  const resolve = (schema?: Schema): Schema | undefined =>
    schema?.$ref ? document.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  const jsonSchema = resolve(op.requestBody?.content?.['application/json']?.schema);
  const send = (url: string, body?: string, contentType?: string) =>
    probes.push({ url, init: { method: op.method, body, headers: contentType ? { 'content-type': contentType } : {} } });

  if (pathParams.length > 0) for (const text of HOSTILE_TEXT) send(fillPath(() => text), hasBody ? '{}' : undefined, hasBody ? 'application/json' : undefined);
  const queries = queryParams.length > 0 ? queryParams : ['query', 'page'];
  for (let i = 0; i < 16; i++) {
    const search = queries.map((q) => `${q}=${rng.pick(HOSTILE_TEXT)}`);
    if (i % 4 === 0) search.push(`${queries[0]}=${rng.pick(HOSTILE_TEXT)}`); // the same key twice: an array
    send(`${plainPath}?${search.join('&')}`, hasBody ? '{}' : undefined, hasBody ? 'application/json' : undefined);
  }
  if (!hasBody) return probes;

  const json = (value: unknown) => send(plainPath, JSON.stringify(value), 'application/json');
  for (const value of [null, [], 'text', 42, true, {}, { extra: 'field' }, nested(200), { big: BIG }, [BIG]]) json(value);
  for (const body of shapedBodies(jsonSchema, rng)) json(body);
  send(plainPath, `${'{"a":['.repeat(5000)}1${']}'.repeat(5000)}`, 'application/json');
  send(plainPath, '{"unterminated":', 'application/json');
  send(plainPath, '', 'application/json');
  send(plainPath, 'a=1&b=2', 'application/x-www-form-urlencoded');
  send(plainPath, 'plain words', 'text/plain');
  send(plainPath, '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot closed', 'multipart/form-data; boundary=x');
  send(plainPath, '{"a":1}', 'application/json; charset=utf-16');
  send(plainPath, '{"a":1}');
  return probes;
}

/**
 * Every operation of the OpenAPI document, sent hostile path and query values and bodies,
 * anonymously, signed in and as an admin: nothing answers 5xx, and every API error is `{errors, code}`.
 * The inputs come from a seeded generator, so a failure reproduces.
 */
describe('every documented route under hostile input', () => {
  const site = useInProcessSite({
    redis: true,
    env: { MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', NODE_ENV: 'production', ADMIN_EMAILS: 'fuzz-admin@example.com' },
  });
  let token: string;
  let adminToken: string;
  let document: { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>; components?: { schemas?: Record<string, Schema> } };

  beforeAll(async () => {
    token = await site.signedInUser('fuzz@example.com');
    adminToken = await site.signedInUser('fuzz-admin@example.com');
    document = await (await fetch(`${site.url}/api/docs/openapi.json`)).json();
  });


  it.each(['anonymous', 'admin'])('answers no 5xx on any page route, page or payload, under hostile parameters (%s)', async (who) => {
    const rng = generator(SEED + 10 + ['anonymous', 'admin'].indexOf(who));
    // Every path of the route table (web/route-table.ts), and two under a locale prefix; the
    // parameters (`:id`, `*slug`) are filled with hostile text below, so is every declared query key.
    const tablePaths = PAGES.map((route) => route.path).filter((path) => path !== '*');
    const routes = [...tablePaths, '/fr/levels/:id', '/de/blog'];
    const queryKeys = [...new Set([...PAGES.flatMap((route) => route.query ?? []), 'query', 'q', 'page', 'scope', 'token', 'session_id', 'error'])];
    const paths: string[] = [];
    for (const route of routes) {
      for (let i = 0; i < 8; i++) {
        const path = route.replace(/[:*][a-z]+/g, () => rng.pick(HOSTILE_TEXT));
        const query = queryKeys.filter(() => rng.next() < 0.4).map((k) => `${k}=${rng.pick(HOSTILE_TEXT)}`).join('&');
        paths.push(query ? `${path}?${query}` : path);
        paths.push(`${path === '/' ? '' : path}/_payload.json${query ? `?${query}` : ''}`);
      }
    }
    const failures: string[] = [];
    let client = 60_000 + ['anonymous', 'admin'].indexOf(who) * 2_000;
    for (let i = 0; i < paths.length; i += 8) {
      await Promise.all(
        paths.slice(i, i + 8).map(async (path) => {
          const headers: Record<string, string> = who === 'admin' ? { authorization: `Bearer ${adminToken}`, cookie: `token=${adminToken}` } : {};
          const { status, text } = await sendFrom(client++, site.port, path, { method: 'GET', headers });
          if (status >= 500) failures.push(`GET ${path.slice(0, 160)} -> ${status} ${text.slice(0, 120)}`);
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it.each(['anonymous', 'signed in', 'admin'])('answers no 5xx and keeps the error shape (%s)', async (who) => {
    const rng = generator(SEED + ['anonymous', 'signed in', 'admin'].indexOf(who));
    const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        // Signing out would end the session the rest of the run uses; it is sent last.
        .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
    );
    operations.sort((a, b) => Number(a.path.includes('sign_out')) - Number(b.path.includes('sign_out')));
    expect(operations.length).toBeGreaterThan(10);

    const failures: string[] = [];
    let sent = 0;
    let client = ['anonymous', 'signed in', 'admin'].indexOf(who) * 20_000;
    for (const op of operations) {
      const probes = probesFor(op, rng, document);
      // A few at a time: enough to be quick, few enough for the machine running the suite.
      for (let i = 0; i < probes.length; i += 8) {
        await Promise.all(
          probes.slice(i, i + 8).map(async ({ url, init }) => {
            const headers: Record<string, string> = { ...init.headers, origin: site.url, accept: 'application/json' };
            if (who !== 'anonymous') headers.authorization = `Bearer ${who === 'admin' ? adminToken : token}`;
            // The path is sent as written (hostile encodings included), not normalised by URL.
            const { status, text } = await sendFrom(client++, site.port, url, { ...init, headers }).catch((e: Error) => ({ status: 0, text: e.message }));
            if (status === 0) failures.push(`${init.method} ${url.slice(0, 120)} ${JSON.stringify(init.headers)} ${String(init.body ?? '').slice(0, 80)} -> ${text}`);
            sent++;
            const label = `${init.method} ${url.slice(0, 120)} ${String(init.body ?? '').slice(0, 80)} -> ${status}`;
            if (status >= 500) failures.push(`${label} ${text.slice(0, 200)}`);
            else if (status >= 400 && url.startsWith('/api/')) {
              let body: unknown;
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
              const shaped =
                typeof body === 'object' && body !== null && Array.isArray((body as { errors?: unknown }).errors) && typeof (body as { code?: unknown }).code === 'string';
              if (!shaped) failures.push(`${label} not {errors, code}: ${text.slice(0, 200)}`);
            }
          }),
        );
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  });

  it('logged every expected answer (4xx, 503) in one line without a stack, and no "Unhandled error"', () => {
    const lines = site.app
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg?: string; res?: { statusCode?: number }; err?: { stack?: string } });
    const answers = lines.filter((line) => line.res?.statusCode !== undefined && line.res.statusCode >= 400);
    expect(answers.length).toBeGreaterThan(100);
    // Before: 77 completion lines carried a stack (e.g. a 503 at info level), and 3 "Unhandled error"s.
    const withStack = lines.filter((line) => JSON.stringify(line).includes('\\n    at '));
    expect(withStack.map((line) => `${line.res?.statusCode ?? ''} ${line.msg ?? ''} ${JSON.stringify(line).slice(0, 300)}`)).toEqual([]);
    expect(lines.filter((line) => line.msg === 'Unhandled error').map((line) => JSON.stringify(line).slice(0, 600))).toEqual([]);
  });
});
