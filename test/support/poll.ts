/**
 * jest's answer to Playwright's `expect.poll`: `await poll(() => locator.textContent()).toContain('9')`
 * reads again until the matcher passes, and fails with the matcher's own message (on the last
 * value read) when `timeoutMs` passes. For anything on a page that arrives after it loads.
 */
export function poll<T>(read: () => T | Promise<T>, timeoutMs = 15_000): jest.JestMatchers<T> {
  const matchers = (negate: boolean): unknown =>
    new Proxy(
      {},
      {
        get(_, name: string) {
          if (name === 'not') return matchers(true);
          return async (...args: unknown[]) => {
            const deadline = Date.now() + timeoutMs;
            for (;;) {
              const value = await read();
              const target = negate ? expect(value).not : expect(value);
              try {
                return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
              } catch (error) {
                if (Date.now() > deadline) throw error;
              }
              await new Promise((r) => setTimeout(r, 50));
            }
          };
        },
      },
    );
  return matchers(false) as jest.JestMatchers<T>;
}
