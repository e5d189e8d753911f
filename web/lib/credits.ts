import type { CreditsView } from 'src/contracts/billing';
import type { Translate } from 'web/i18n/i18n';
import { authorizationHeader, paymentsEnabled, sessionStore, signedOut, takeToken } from './session';

/**
 * The signed-in user's credits (balance, lots, daily usage): the header's balance and /usage read
 * the same store. Loaded in the browser only (pages are the same for everyone), with has_payment
 * on and someone signed in; refreshed after sign-in, after a payment, and when /usage opens.
 */
export interface CreditsState {
  view: CreditsView | null;
  /** The last load failed (the view, if any, is older). */
  failed: boolean;
}

const EMPTY: CreditsState = { view: null, failed: false };
let state: CreditsState = EMPTY;
const listeners = new Set<() => void>();

function set(next: CreditsState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export const creditsStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => state,
  serverGet: () => EMPTY,
};

let inFlight: Promise<CreditsView | null> | undefined;

/** GETs /api/v1/credits into the store (one request at a time); null when signed out or payments are off. */
export function refreshCredits(): Promise<CreditsView | null> {
  if (!paymentsEnabled() || !sessionStore.get().userInfo) {
    if (state !== EMPTY) set(EMPTY);
    return Promise.resolve(null);
  }
  inFlight ??= load().finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

async function load(): Promise<CreditsView | null> {
  try {
    const response = await fetch('/api/v1/credits', { headers: { accept: 'application/json', ...authorizationHeader() }, credentials: 'same-origin' });
    takeToken(response.headers);
    if (response.ok) {
      const view = (await response.json()) as CreditsView;
      set({ view, failed: false });
      return view;
    }
    await response.body?.cancel();
    // The session ended meanwhile (expired, signed out elsewhere): show it as signed out.
    if (response.status === 401) signedOut();
    set(response.status === 401 ? EMPTY : { ...state, failed: true });
  } catch {
    set({ ...state, failed: true });
  }
  return null;
}

/** Forgets the credits (sign-out). */
export const clearCredits = () => set(EMPTY);

/** "1 credit", "1,250 credits" in the page's language. */
export function creditsLabel(t: Translate, count: number, tag: string): string {
  return t(Math.abs(count) === 1 ? 'credits.one' : 'credits.other', { count: count.toLocaleString(tag) });
}
