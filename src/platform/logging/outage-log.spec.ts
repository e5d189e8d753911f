import { OutageLog } from './outage-log';

describe('OutageLog', () => {
  const setup = () => {
    const lines: string[] = [];
    let now = 0;
    const log = (line: string) => void lines.push(line);
    const outage = new OutageLog({ error: log, warn: log, log }, 'Redis (job workers)', 60_000, () => now);
    return { lines, outage, at: (ms: number) => (now = ms) };
  };

  it('logs the first failure, then at most once a minute however many calls fail, then once when it is over', () => {
    const { lines, outage, at } = setup();
    // 68 failures in the first minute (what was measured), then more.
    for (let i = 0; i < 68; i++) {
      at(i * 880);
      outage.failed('connect ECONNREFUSED');
    }
    expect(lines).toEqual(['Redis (job workers) is unavailable: connect ECONNREFUSED (logged again at most once every 60 s while it lasts)']);
    at(60_000);
    outage.failed('connect ECONNREFUSED');
    at(61_000);
    outage.failed('connect ECONNREFUSED');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('Redis (job workers) still unavailable after 60 s: connect ECONNREFUSED (68 failure(s) since the last line)');
    at(75_000);
    outage.recovered();
    outage.recovered();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('Redis (job workers) is back after 75 s');
  });

  it('says nothing while all is well', () => {
    const { lines, outage } = setup();
    outage.recovered();
    expect(lines).toEqual([]);
  });
});
