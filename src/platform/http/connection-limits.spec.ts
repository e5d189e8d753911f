import { ConnectionCutLog } from './connection-limits';

describe('ConnectionCutLog', () => {
  it('logs the first cut, then at most one line a minute per kind with the count since the last', () => {
    const warn = jest.fn();
    const limits = { headersTimeoutMs: 1, requestTimeoutMs: 1, idleTimeoutMs: 1, keepAliveTimeoutMs: 1, maxConnections: 1, maxConnectionsPerClient: 1 };
    const cuts = new ConnectionCutLog({ warn }, limits);
    cuts.note('slow request', 0);
    for (let i = 1; i <= 500; i++) cuts.note('slow request', i);
    cuts.note('over the connection cap', 10);
    expect(warn).toHaveBeenCalledTimes(2);
    cuts.note('slow request', 60_000);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[2]![0]).toMatchObject({ cut: 'slow request', count: 501 });
  });
});
