import { PROGRESS_KEY, storedProgress } from 'src/contracts/progress';
import { PROGRESS_SYNC_BATCH, fromItems, mergeProgress, toItems, type ProgressSyncResult } from 'src/contracts/progress-sync';
import { readProgress, writeProgress } from './progress-store';
import { authorizationHeader, sessionStore, takeToken } from './session';
import { onStoredChange, readStored } from './stored-state';

/** A change waits this long for the next before it is sent: a burst of taps is one request. */
export const SYNC_DELAY_MS = 1000;

let started = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let running: Promise<void> | undefined;
/** The stored text the last sync wrote or sent: a change is only what differs from it. */
let synced: string | null = null;

/**
 * Keeps a signed-in player's progress in the account: at start (the sign-in merge, or another
 * device's changes) and after every change in this browser, the browser's entries are merged into
 * the account and the result back into the browser, by the same rules (src/contracts/progress.ts).
 * Loaded only once someone is signed in; signed out, nothing is sent and the browser keeps its copy.
 */
export function startProgressSync(): void {
  if (started) return;
  started = true;
  onStoredChange(() => {
    if (readStored(PROGRESS_KEY) !== synced) schedule(SYNC_DELAY_MS);
  });
  // Another account signing in on this page merges this browser into that account too.
  let user = sessionStore.get().userInfo?.email;
  sessionStore.subscribe(() => {
    const now = sessionStore.get().userInfo?.email;
    if (now && now !== user) schedule(0);
    user = now;
  });
  schedule(0);
}

function schedule(delay: number): void {
  clearTimeout(timer);
  timer = setTimeout(() => void syncNow(), delay);
}

/** One sync at a time; a change made meanwhile is sent by the next. */
export async function syncNow(): Promise<void> {
  if (running) {
    await running;
    return syncNow();
  }
  running = sync().finally(() => (running = undefined));
  return running;
}

async function sync(): Promise<void> {
  if (!sessionStore.get().userInfo) return;
  const sentAt = Date.now();
  const items = toItems(readProgress(), sentAt);
  let answer: ProgressSyncResult | undefined;
  // Each batch merges into the account; the last answer holds them all.
  for (let i = 0; i === 0 || i < items.length; i += PROGRESS_SYNC_BATCH) {
    answer = await post(items.slice(i, i + PROGRESS_SYNC_BATCH));
    if (!answer) return;
  }
  // The answer's ages are dated from when this browser sent it: an entry it sent comes back with its own time.
  const account = fromItems(answer!.levels, sentAt);
  const clearedAt = answer!.clearedAgo === null ? undefined : sentAt - answer!.clearedAgo;
  // Taps made while the request was out are newer than the answer, and kept.
  const merged = mergeProgress(account, readProgress(), clearedAt);
  synced = storedProgress(merged);
  if (readStored(PROGRESS_KEY) !== synced) writeProgress(merged);
}

/** The account's progress after merging these, or undefined when it could not be reached (tried again at the next change or page). */
async function post(levels: ReturnType<typeof toItems>): Promise<ProgressSyncResult | undefined> {
  try {
    const response = await fetch('/api/v1/me/progress', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...authorizationHeader() },
      body: JSON.stringify({ levels }),
      credentials: 'same-origin',
    });
    takeToken(response.headers);
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as ProgressSyncResult;
  } catch {
    return undefined;
  }
}
