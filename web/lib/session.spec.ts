import { configureSession, loadUserInfo, sessionStore, signedIn, signedOut, type UserInfo } from './session';

const USER: UserInfo = { email: 'link@example.com', confirmed: true, admin: false };

/** A user_info answer the test releases when it wants: the network's order is the test's. */
function heldUserInfo(body: unknown, headers: Record<string, string> = {}) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    await released;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
  });
  return release;
}

describe('the session store', () => {
  beforeEach(() => configureSession(true));
  afterEach(() => {
    jest.restoreAllMocks();
    signedOut();
  });

  it('takes the user and the token from the start-up user_info answer', async () => {
    heldUserInfo(USER, { authorization: 'Bearer from-cookie' })();
    await loadUserInfo();
    expect(sessionStore.get()).toEqual({ token: 'from-cookie', userInfo: USER, loaded: true });
  });

  it('keeps a sign-in made while the start-up user_info was on its way (a sign-in link page): the older "signed out" answer loses', async () => {
    const release = heldUserInfo({ email: null });
    const loading = loadUserInfo();
    signedIn(USER);
    release();
    await loading;
    expect(sessionStore.get()).toMatchObject({ userInfo: USER, loaded: true });
  });

  it('keeps a sign-out made while user_info was on its way: the older "signed in" answer loses', async () => {
    const release = heldUserInfo(USER, { authorization: 'Bearer stale' });
    const loading = loadUserInfo();
    signedOut();
    release();
    await loading;
    expect(sessionStore.get()).toEqual({ token: null, userInfo: null, loaded: true });
  });

  it('counts an unreachable API as loaded and signed out', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    signedOut();
    await loadUserInfo();
    expect(sessionStore.get()).toMatchObject({ userInfo: null, loaded: true });
  });
});
