import { COLOR_MODE_KEY, FORCED_COLOR_MODE_ATTRIBUTE, THEME_SCRIPT, effectiveColorMode, forcedColorMode, type ColorMode, type ColorPreference } from './theme';

describe('the colour mode of a page', () => {
  it("follows the visitor's preference, the OS scheme when it is 'system'", () => {
    expect(effectiveColorMode('light', true)).toBe('light');
    expect(effectiveColorMode('dark', false)).toBe('dark');
    expect(effectiveColorMode('system', true)).toBe('dark');
    expect(effectiveColorMode('system', false)).toBe('light');
  });

  it('is the forced mode when the page forces light or dark, whatever the preference', () => {
    for (const preference of ['system', 'light', 'dark'] as const) {
      for (const systemDark of [true, false]) {
        expect(effectiveColorMode(preference, systemDark, 'light')).toBe('light');
        expect(effectiveColorMode(preference, systemDark, 'dark')).toBe('dark');
      }
    }
  });

  it("forces light or dark as a route asks, nothing when it does not ask", () => {
    const warn = jest.fn();
    expect(forcedColorMode('legal', 'light', warn)).toBe('light');
    expect(forcedColorMode('legal', 'dark', warn)).toBe('dark');
    expect(forcedColorMode('home', undefined, warn)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it("warns, naming the route, when a route forces 'system', and falls back to the preference", () => {
    const warn = jest.fn();
    const forced = forcedColorMode('legal', 'system', warn);
    expect(forced).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('legal', expect.stringContaining('"legal"'));
    expect(effectiveColorMode('dark', false, forced)).toBe('dark');
    expect(effectiveColorMode('system', false, forced)).toBe('light');
  });

  it('warns with console.warn once per route by default', () => {
    const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      forcedColorMode('spec-route-a', 'system');
      forcedColorMode('spec-route-a', 'system');
      forcedColorMode('spec-route-b', 'system');
      expect(consoleWarn.mock.calls.map(([message]) => String(message))).toEqual([
        expect.stringContaining('"spec-route-a"'),
        expect.stringContaining('"spec-route-b"'),
      ]);
    } finally {
      consoleWarn.mockRestore();
    }
  });
});

describe('THEME_SCRIPT, the inline head script', () => {
  /** Runs the script against a fake <html>, localStorage and matchMedia; returns what it showed. */
  function runScript({ forced, stored, systemDark, storage = 'works' }: { forced?: string; stored?: string; systemDark: boolean; storage?: 'works' | 'throws' }) {
    const classes = new Set<string>(['js']);
    const documentElement = {
      getAttribute: (name: string) => (name === FORCED_COLOR_MODE_ATTRIBUTE ? (forced ?? null) : null),
      classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name), on) },
      style: { colorScheme: '' },
    };
    const localStorage = {
      getItem(key: string) {
        if (storage === 'throws') throw new Error('SecurityError');
        return key === COLOR_MODE_KEY ? (stored ?? null) : null;
      },
    };
    const matchMedia = (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && systemDark });
    new Function('document', 'localStorage', 'matchMedia', THEME_SCRIPT)({ documentElement }, localStorage, matchMedia);
    return { dark: classes.has('dark'), kept: classes.has('js'), colorScheme: documentElement.style.colorScheme };
  }

  it('applies the same rule as effectiveColorMode, the forced mode included', () => {
    for (const forced of [undefined, 'light', 'dark'] as const) {
      for (const stored of [undefined, 'system', 'light', 'dark', 'nonsense']) {
        for (const systemDark of [true, false]) {
          const preference: ColorPreference = stored === 'light' || stored === 'dark' ? stored : 'system';
          const expected: ColorMode = effectiveColorMode(preference, systemDark, forced);
          expect({ forced, stored, systemDark, ...runScript({ forced, stored, systemDark }) }).toEqual({
            forced,
            stored,
            systemDark,
            dark: expected === 'dark',
            kept: true,
            colorScheme: expected,
          });
        }
      }
    }
  });

  it('still applies a forced mode, or the OS scheme, when localStorage is not available', () => {
    expect(runScript({ forced: 'dark', systemDark: false, storage: 'throws' })).toMatchObject({ dark: true, colorScheme: 'dark' });
    expect(runScript({ forced: 'light', systemDark: true, storage: 'throws' })).toMatchObject({ dark: false, colorScheme: 'light' });
    expect(runScript({ systemDark: true, storage: 'throws' })).toMatchObject({ dark: true, colorScheme: 'dark' });
  });
});
