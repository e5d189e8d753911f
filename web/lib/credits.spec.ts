import { interpolate } from 'web/i18n/i18n';
import en from 'web/i18n/messages/en';
import { creditsLabel, creditsStore, refreshCredits } from './credits';
import { configureSession, signedIn, signedOut } from './session';

const t = (key: keyof typeof en, values?: Record<string, string | number>) => interpolate(en[key], values);

describe('credits', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    signedOut();
  });

  it('labels a balance in the page language, singular for one', () => {
    expect(creditsLabel(t, 1, 'en-US')).toBe('1 credit');
    expect(creditsLabel(t, 0, 'en-US')).toBe('0 credits');
    expect(creditsLabel(t, 1250, 'en-US')).toBe('1,250 credits');
  });

  it('loads the balance only with payments on and someone signed in, one request at a time', async () => {
    const view = { balance: 10, lots: [], has_paid: true, daily_usage: [], trial_refused: false };
    const fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify(view), { status: 200 }));
    configureSession(true, true);
    await expect(refreshCredits()).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();

    signedIn({ email: 'a@example.com', confirmed: true, admin: false });
    const [first, second] = await Promise.all([refreshCredits(), refreshCredits()]);
    expect(first).toEqual(view);
    expect(second).toEqual(view);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(creditsStore.get().view?.balance).toBe(10);

    // Signed out: the balance goes with the user.
    signedOut();
    await refreshCredits();
    expect(creditsStore.get().view).toBeNull();
  });

  it('shows the user signed out when the session ended', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 401 }));
    configureSession(true, true);
    signedIn({ email: 'a@example.com', confirmed: true, admin: false });
    await refreshCredits();
    expect(creditsStore.get()).toEqual({ view: null, failed: false });
  });
});
