import { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { countRoundTrips, measureRoundTrips } from './round-trips';

/** A pool that hands out fake connections the way pg's does: 'connect' once per new connection. */
function pool(connections: number) {
  const emitter = new EventEmitter();
  countRoundTrips(emitter as unknown as Pool);
  const clients = Array.from({ length: connections }, () => ({
    query: (sql: string) => new Promise<{ rows: string[] }>((done) => setTimeout(() => done({ rows: [sql] }), 1)),
  }));
  for (const client of clients) emitter.emit('connect', client);
  return { emitter, clients };
}

describe('database round trips', () => {
  it('counts the statements of the measured work only, each of two concurrent pieces of work its own', async () => {
    const { clients } = pool(2);
    const [a, b] = clients as [(typeof clients)[0], (typeof clients)[0]];
    await a.query('select outside');
    const [page, other] = await Promise.all([
      measureRoundTrips(async () => {
        await a.query('begin');
        await Promise.all([a.query('select 1'), b.query('select 2')]);
        await a.query('commit');
        return 'page';
      }),
      measureRoundTrips(async () => (await b.query('select 3')).rows[0]),
    ]);
    expect(page).toEqual({ value: 'page', roundTrips: 4 });
    expect(other).toEqual({ value: 'select 3', roundTrips: 1 });
    await expect(measureRoundTrips(async () => 'none')).resolves.toEqual({ value: 'none', roundTrips: 0 });
  });

  it('wraps a connection once, however often the pool reports it', async () => {
    const { emitter, clients } = pool(1);
    emitter.emit('connect', clients[0]);
    await expect(measureRoundTrips(() => clients[0]!.query('select 1'))).resolves.toMatchObject({ roundTrips: 1 });
  });
});
