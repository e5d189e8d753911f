import { PROGRESS_KEY, storedProgress, type ProgressLevels } from 'src/contracts/progress';
import {
  PROGRESS_SYNC_BATCH,
  PROGRESS_SYNC_KEY,
  applySyncAnswer,
  parseSyncState,
  pendingChanges,
  storedSyncState,
  toItems,
  type ProgressSyncInput,
  type ProgressSyncResult,
} from 'src/contracts/progress-sync';
import { readProgress, writeProgress } from './progress-store';
import { authorizationHeader, sessionStore, takeToken } from './session';
import { onStoredChange, readStored, writeStored } from './stored-state';

/** A change waits this long for the next before it is sent: a burst of taps is one request. */
export const SYNC_DELAY_MS = 1000;
/** Requests one sync makes at most (a first merge of 25,000 entries); what is left goes with the next. */
const MAX_BATCHES = 50;
/** The state of a browser that has not synced with the signed-in account: the next sync is the full merge. */
const NO_SYNC = storedSyncState({ synced: {} });

let started = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let running: Promise<void> | undefined;
/** The scheduled sync also asks for other devices' changes when this browser has none to send. */
let pullNext = false;

const readSyncState = () => parseSyncState(readStored(PROGRESS_SYNC_KEY));
const hasPending = () => Object.keys(pendingChanges(readProgress(), readSyncState())).length > 0;

/**
 * Keeps a signed-in player's progress in the account. The first sync of this browser with an
 * account (sign-in) merges everything both ways; after that a sync sends only the marks changed
 * since the last one that succeeded (ProgressSyncState in localStorage), and gets back only what
 * other devices changed: at start, after every change here, and when the browser is back online.
 * A sync that fails leaves its changes to send with the next. The rules are shared with the server
 * (src/contracts/progress-sync.ts). Loaded only once someone is signed in; signed out, nothing is
 * sent and the browser keeps its copy.
 */
export function startProgressSync(): void {
  if (started) return;
  started = true;
  // This tab's changes and other tabs' (the storage event); a sync's own writes leave nothing pending.
  onStoredChange(() => {
    if (hasPending()) schedule(SYNC_DELAY_MS);
  });
  window.addEventListener('online', () => schedule(0, true));
  // Signed out, or another account in: the next account's first sync is the full merge.
  let user = sessionStore.get().userInfo?.email;
  sessionStore.subscribe(() => {
    const now = sessionStore.get().userInfo?.email;
    if (now === user) return;
    user = now;
    writeStored(PROGRESS_SYNC_KEY, NO_SYNC);
    if (now) schedule(0, true);
  });
  schedule(0, true);
}

function schedule(delay: number, pull = false): void {
  pullNext ||= pull;
  clearTimeout(timer);
  timer = setTimeout(() => {
    const pulling = pullNext;
    pullNext = false;
    void syncNow(pulling);
  }, delay);
}

/** One sync at a time; a change made meanwhile is sent by the next. `pull`: ask even with nothing to send. */
export async function syncNow(pull = true): Promise<void> {
  if (running) {
    await running;
    return syncNow(pull);
  }
  running = sync(pull).finally(() => (running = undefined));
  return running;
}

async function sync(pull: boolean): Promise<void> {
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    if (!sessionStore.get().userInfo) return;
    const state = readSyncState();
    const before = readProgress();
    const pending = pendingChanges(before, state);
    const levels = Object.keys(pending).map(Number).sort((a, b) => a - b).slice(0, PROGRESS_SYNC_BATCH);
    if (!levels.length && state.cursor && !pull) return;
    const sent: ProgressLevels = Object.fromEntries(levels.map((level) => [level, pending[level]!]));
    const sentAt = Date.now();
    const answer = await post({ levels: toItems(sent, sentAt), ...(state.cursor ? { since: state.cursor } : {}) });
    if (answer === 'restart') {
      writeStored(PROGRESS_SYNC_KEY, NO_SYNC);
      continue;
    }
    if (!answer) return;
    const after = applySyncAnswer({ before, sent, current: readProgress(), state, answer, sentAt });
    // The marks first: a sync state written without them would claim entries this browser lacks.
    if (readStored(PROGRESS_KEY) !== storedProgress(after.levels)) writeProgress(after.levels);
    writeStored(PROGRESS_SYNC_KEY, storedSyncState(after.state));
    if (levels.length < PROGRESS_SYNC_BATCH) return;
    pull = false;
  }
}

/**
 * The account's answer; 'restart' when it does not know this browser's cursor (it was another
 * account's); undefined when it could not be reached (tried again at the next change, page or
 * reconnection).
 */
async function post(input: ProgressSyncInput): Promise<ProgressSyncResult | 'restart' | undefined> {
  try {
    const response = await fetch('/api/v1/me/progress', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...authorizationHeader() },
      body: JSON.stringify(input),
      credentials: 'same-origin',
    });
    takeToken(response.headers);
    if (response.status === 409) {
      const body = (await response.json().catch(() => null)) as { code?: string } | null;
      return body?.code === 'PROGRESS.SYNC_RESTART' ? 'restart' : undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as ProgressSyncResult;
  } catch {
    return undefined;
  }
}
