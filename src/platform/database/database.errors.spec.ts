import { ConnectionException, DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database.errors';

const withCode = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

describe('isDatabaseUnavailable', () => {
  it('recognises the ways the pg driver and MikroORM report a lost or impossible connection', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new DriverException(refused))).toBe(true);
    expect(isDatabaseUnavailable(new DriverException(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }))).toBe(true);
    expect(isDatabaseUnavailable(new ConnectionException(new Error('whatever the driver said')))).toBe(true);
    // The server itself: shutting down, starting, or out of connections.
    expect(isDatabaseUnavailable(new DriverException(withCode('terminating connection due to administrator command', { code: '57P01' })))).toBe(true);
    expect(isDatabaseUnavailable(withCode('sorry, too many clients already', { code: '53300', severity: 'FATAL' }))).toBe(true);
    // Wrapped further up, as a cause.
    expect(isDatabaseUnavailable(new Error('loading the page failed', { cause: new DriverException(refused) }))).toBe(true);
    expect(isDatabaseUnavailable(new DatabaseUnavailableError())).toBe(true);
  });

  it('leaves bugs, bad queries and other services alone', () => {
    expect(isDatabaseUnavailable(new Error('relation "levels" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new UniqueConstraintViolationException(withCode('duplicate key', { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(withCode('a plain error with a state-like code', { code: '08006' }))).toBe(false);
    // An HTTP client's refused connection (fetch puts it in the cause) is another service's outage.
    const fetchFailed = new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 10.0.0.9:443', { code: 'ECONNREFUSED', syscall: 'connect' }) });
    expect(isDatabaseUnavailable(fetchFailed)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
