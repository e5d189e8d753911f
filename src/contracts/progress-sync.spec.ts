import type { ProgressLevels } from './progress';
import { applySyncAnswer, parseSyncState, pendingChanges, storedSyncState, toItems, type ProgressSyncResult, type ProgressSyncState } from './progress-sync';

const NOW = Date.UTC(2026, 10, 26, 12, 0);
const MIN = 60_000;
const answer = (levels: ProgressLevels, more: Partial<ProgressSyncResult> = {}): ProgressSyncResult => ({
  levels: toItems(levels, NOW),
  clearedAgo: null,
  cursor: 'tag.2',
  ...more,
});

describe('pendingChanges: what the next sync sends', () => {
  const levels: ProgressLevels = { 1: { state: 'solved', at: NOW - 5 * MIN }, 2: { state: 'stuck', at: NOW - MIN }, 3: { state: 'none', at: NOW } };

  it('is everything before the first sync with an account (the full merge)', () => {
    expect(pendingChanges(levels, { synced: {} })).toEqual(levels);
  });

  it('is only the entries the account is not known to hold: new, changed, taken back', () => {
    const state: ProgressSyncState = { cursor: 'tag.1', synced: { 1: NOW - 5 * MIN, 2: NOW - 2 * MIN } };
    expect(pendingChanges(levels, state)).toEqual({ 2: levels[2], 3: levels[3] });
    expect(pendingChanges(levels, { cursor: 'tag.1', synced: { 1: NOW - 5 * MIN, 2: NOW - MIN, 3: NOW } })).toEqual({});
  });
});

describe('applySyncAnswer', () => {
  it("merges the account's answer in and marks every level it settled as synced: nothing is left to send", () => {
    const before: ProgressLevels = { 1: { state: 'solved', at: NOW - 10 * MIN } };
    const account: ProgressLevels = { 1: { state: 'solved', at: NOW - 10 * MIN }, 7: { state: 'stuck', at: NOW - MIN } };
    const after = applySyncAnswer({ before, sent: before, current: before, state: { synced: {} }, answer: answer(account), sentAt: NOW });
    expect(after.levels).toEqual(account);
    expect(after.state).toEqual({ cursor: 'tag.2', synced: { 1: NOW - 10 * MIN, 7: NOW - MIN } });
    expect(pendingChanges(after.levels, after.state)).toEqual({});
  });

  it('takes a newer change from another device over the older one here, and keeps a newer one here', () => {
    const before: ProgressLevels = { 4: { state: 'stuck', at: NOW - 30 * MIN }, 5: { state: 'solved', at: NOW - MIN } };
    const state: ProgressSyncState = { cursor: 'tag.1', synced: { 4: NOW - 30 * MIN } };
    const sent = { 5: before[5]! };
    // The account: 4 solved on the phone since; 5 as this browser sent it, its age 3 ms older after the round trip.
    const account: ProgressLevels = { 4: { state: 'solved', at: NOW - 5 * MIN }, 5: { state: 'solved', at: NOW - MIN - 3 } };
    const after = applySyncAnswer({ before, sent, current: before, state, answer: answer(account), sentAt: NOW });
    expect(after.levels).toEqual({ 4: account[4], 5: before[5] });
    // Settled both ways: the echo is not sent back again and again.
    expect(pendingChanges(after.levels, after.state)).toEqual({});
  });

  it('keeps a tap made while the request was out to send, even on a level the answer speaks of', () => {
    const before: ProgressLevels = { 2: { state: 'stuck', at: NOW - MIN } };
    const tapped: ProgressLevels = { ...before, 2: { state: 'solved', at: NOW + 500 }, 8: { state: 'solved', at: NOW + 600 } };
    const account: ProgressLevels = { 2: { state: 'stuck', at: NOW - MIN }, 8: { state: 'stuck', at: NOW - 3 * MIN } };
    const after = applySyncAnswer({ before, sent: before, current: tapped, state: { synced: {} }, answer: answer(account), sentAt: NOW });
    expect(after.levels).toEqual(tapped);
    expect(pendingChanges(after.levels, after.state)).toEqual({ 2: tapped[2], 8: tapped[8] });
  });

  it('leaves the changes a later batch carries to send, even when the answer holds an older entry of theirs', () => {
    const before: ProgressLevels = { 1: { state: 'solved', at: NOW - MIN }, 600: { state: 'solved', at: NOW - MIN } };
    const sent = { 1: before[1]! };
    const account: ProgressLevels = { 1: before[1]!, 600: { state: 'stuck', at: NOW - 60 * MIN } };
    const after = applySyncAnswer({ before, sent, current: before, state: { synced: {} }, answer: answer(account), sentAt: NOW });
    expect(pendingChanges(after.levels, after.state)).toEqual({ 600: before[600] });
  });

  it("drops what this browser held from before the player's last clear, and forgets it was synced", () => {
    const before: ProgressLevels = { 1: { state: 'solved', at: NOW - 60 * MIN }, 2: { state: 'stuck', at: NOW - MIN } };
    const state: ProgressSyncState = { cursor: 'tag.1', synced: { 1: NOW - 60 * MIN } };
    const after = applySyncAnswer({
      before,
      sent: { 2: before[2]! },
      current: before,
      state,
      answer: answer({ 2: before[2]! }, { clearedAgo: 10 * MIN }),
      sentAt: NOW,
    });
    expect(after.levels).toEqual({ 2: before[2] });
    expect(after.state.synced).toEqual({ 2: NOW - MIN });
  });

  it('dates the answer from when the request left: a slow answer does not make old entries look new', () => {
    const account: ProgressLevels = { 3: { state: 'solved', at: NOW - 5 * MIN } };
    const after = applySyncAnswer({ before: {}, sent: {}, current: {}, state: { synced: {} }, answer: answer(account), sentAt: NOW - 2 * MIN });
    expect(after.levels[3]!.at).toBe(NOW - 7 * MIN);
  });
});

describe('parseSyncState', () => {
  it('reads what storedSyncState wrote', () => {
    const state: ProgressSyncState = { cursor: 'tag.12', synced: { 3: 5, 40: 7 } };
    expect(parseSyncState(storedSyncState(state))).toEqual(state);
  });

  it('starts over (a full merge) from anything malformed, and keeps only well-formed levels', () => {
    for (const raw of [null, 'not json', 'null', '{"synced":{}}', '{"cursor":3,"synced":{}}', '{"cursor":"a.1"}']) expect(parseSyncState(raw)).toEqual({ synced: {} });
    expect(parseSyncState(JSON.stringify({ cursor: 'a.1', synced: { 1: 5, 0: 5, x: 5, 2: '5', 3: null } }))).toEqual({ cursor: 'a.1', synced: { 1: 5 } });
  });
});
