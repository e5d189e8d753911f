import { securityHeaders } from './security-headers';

describe('securityHeaders', () => {
  it("records helmet's headers for the options, CSP included", () => {
    const headers = securityHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'sha256-abc='"], objectSrc: ["'none'"] } },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    });
    expect(headers['content-security-policy']).toBe("default-src 'self';script-src 'self' 'sha256-abc=';object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers).not.toHaveProperty('strict-transport-security');
    expect(headers).not.toHaveProperty('cross-origin-embedder-policy');
    expect(Object.isFrozen(headers)).toBe(true);
  });

  it('adds HSTS when asked (an https site) and leaves the CSP out when it is off', () => {
    const headers = securityHeaders({ contentSecurityPolicy: false, strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true } });
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers).not.toHaveProperty('content-security-policy');
  });

  it('refuses options helmet refuses, at start rather than on a request', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'self'"], defaultSrc: ["'self'"] } } })).toThrow();
  });
});
