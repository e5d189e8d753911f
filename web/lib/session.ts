/**
 * The session store (spec: "main"): the bearer token and the signed-in user's info. Page HTML is
 * the same for everyone; this fills in the browser. The token cookie is HttpOnly, so at start the
 * token comes back in the Authorization header of the user_info answer; any response carrying a
 * new Authorization header replaces it ('Bearer ' removed).
 */
export interface UserInfo {
  email: string;
  confirmed: boolean;
  admin: boolean;
}

export interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
  /** False until the first user_info answer (or when login is off): the header shows nothing yet. */
  loaded: boolean;
}

const SIGNED_OUT: SessionState = { token: null, userInfo: null, loaded: false };
let state: SessionState = SIGNED_OUT;
const listeners = new Set<() => void>();

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

export const sessionStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => state,
  serverGet: () => SIGNED_OUT,
};

/** Takes the token of a response's Authorization header, if any. */
export function takeToken(headers: Headers): void {
  const header = headers.get('authorization');
  if (header?.startsWith('Bearer ')) {
    const token = header.slice('Bearer '.length).trim();
    if (token && token !== state.token) set({ token });
  }
}

/** Resolves once the first user_info answer is in (at once if it already is). */
export function sessionLoaded(): Promise<void> {
  if (state.loaded) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = () => {
      if (!state.loaded) return;
      listeners.delete(listener);
      resolve();
    };
    listeners.add(listener);
  });
}

/**
 * Bumped by every sign-in and sign-out this page makes: a user_info answer asked for before one
 * is stale (a sign-in link's page signs in while the start's user_info is still on its way, and
 * that answer, "signed out", must not undo it).
 */
let changes = 0;
export const signedIn = (user: UserInfo) => {
  changes++;
  set({ userInfo: user, loaded: true });
};
/** Signed out: the stored user info is cleared (spec). */
export const signedOut = () => {
  changes++;
  set({ token: null, userInfo: null, loaded: true });
};

let loginOn = false;
let paymentsOn = false;
/** Called once at start with the public settings has_login and has_payment. */
export const configureSession = (hasLogin: boolean, hasPayment = false) => {
  loginOn = hasLogin;
  paymentsOn = hasPayment;
};
/** Whether the signed-in user has credits to show (has_payment): see web/lib/credits. */
export const paymentsEnabled = () => paymentsOn;

/** The Authorization header to send: only when login is on (spec) and a token is known. */
export const authorizationHeader = (): Record<string, string> =>
  loginOn && state.token ? { authorization: `Bearer ${state.token}` } : {};

/** Loads the signed-in user once at start (the cookie authenticates it); `{ email: null }` (or a 401) means signed out. */
export async function loadUserInfo(): Promise<void> {
  const asked = changes;
  try {
    const response = await fetch('/api/v1/user_info', { headers: { accept: 'application/json', ...authorizationHeader() }, credentials: 'same-origin' });
    // Not signed in ({ email: null }, or a 401 whose body is only drained to release the connection).
    const info = response.ok ? ((await response.json()) as Partial<UserInfo> | null) : void (await response.body?.cancel());
    // The page signed in or out meanwhile: that is newer than this answer.
    if (changes !== asked) return;
    takeToken(response.headers);
    if (typeof info?.email === 'string') set({ userInfo: info as UserInfo, loaded: true });
    else set({ token: null, userInfo: null, loaded: true });
  } catch {
    if (changes === asked) set({ loaded: true });
  }
}
