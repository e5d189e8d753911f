import { isSessionLive, type Session } from './session';

const IDLE = 30 * 24 * 60 * 60 * 1000;
const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const session = (overrides: Partial<Session> = {}): Session => ({
  id: 's1',
  userId: 'u1',
  tokenHash: 'h',
  createdAt: T0,
  lastUsedAt: T0,
  expiresAt: at(90 * 24 * 60 * 60 * 1000),
  revokedAt: null,
  ...overrides,
});

describe('isSessionLive', () => {
  it('is live right after creation and until just before the idle limit', () => {
    expect(isSessionLive(session(), T0, IDLE)).toBe(true);
    expect(isSessionLive(session(), at(IDLE - 1), IDLE)).toBe(true);
  });

  it('ends exactly at lastUsedAt + idle (and after)', () => {
    expect(isSessionLive(session(), at(IDLE), IDLE)).toBe(false);
    expect(isSessionLive(session(), at(IDLE + 1), IDLE)).toBe(false);
  });

  it('counts idleness from the last use, not from creation', () => {
    const used = session({ lastUsedAt: at(IDLE - 1) });
    expect(isSessionLive(used, at(IDLE + 1000), IDLE)).toBe(true);
    // lastUsedAt + idle = 2 * IDLE - 1
    expect(isSessionLive(used, at(2 * IDLE - 2), IDLE)).toBe(true);
    expect(isSessionLive(used, at(2 * IDLE - 1), IDLE)).toBe(false);
  });

  it('ends exactly at its absolute expiry, however recently used', () => {
    const s = session({ expiresAt: at(1000), lastUsedAt: at(999) });
    expect(isSessionLive(s, at(999), IDLE)).toBe(true);
    expect(isSessionLive(s, at(1000), IDLE)).toBe(false);
    expect(isSessionLive(session({ expiresAt: at(1000), lastUsedAt: at(5000) }), at(5000), IDLE)).toBe(false);
  });

  it('is over once revoked, whatever the revocation time says', () => {
    expect(isSessionLive(session({ revokedAt: T0 }), T0, IDLE)).toBe(false);
    expect(isSessionLive(session({ revokedAt: at(-1) }), T0, IDLE)).toBe(false);
    // A revocation stamped in the future (clock skew between processes) still counts.
    expect(isSessionLive(session({ revokedAt: at(60_000) }), T0, IDLE)).toBe(false);
  });

  it('is never live with no idle allowance', () => {
    expect(isSessionLive(session(), T0, 0)).toBe(false);
  });

  it('tolerates a last use slightly ahead of now (another process with a faster clock)', () => {
    expect(isSessionLive(session({ lastUsedAt: at(2000) }), at(1000), IDLE)).toBe(true);
  });
});
