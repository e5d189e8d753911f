import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';

declare module 'fastify' {
  interface FastifyRequest {
    /** The round trip's return path, once the callback's state matched the cookie (see GoogleStrategy). */
    oauthRoundTrip?: { origin: string };
  }
}

/** The short-lived cookie that carries state, PKCE verifier and return path across the round trip to Google. */
export const OAUTH_COOKIE = 'oauth_state';
const COOKIE_PATH = '/auth/google_oauth2';
const LIFETIME_S = 10 * 60;

interface StatePayload {
  /** The `state` sent to the provider; the callback must bring the same one back. */
  s: string;
  /** PKCE code verifier. */
  v: string;
  /** Where to return afterwards: a path on this site. */
  o: string;
}

/** Only a path on this site: '/levels/27?x=1' yes; '//evil.example', 'https://…', '/\\evil' no. */
export function safeReturnPath(origin: unknown): string {
  if (typeof origin !== 'string' || origin.length > 2048) return '/';
  const control = [...origin].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!origin.startsWith('/') || origin.startsWith('//') || origin.includes('\\') || control) return '/';
  // Percent-encoded as a Location header must be ('/。evil.com' would throw there); '/.//x' resolves to '//x'.
  const url = new URL(origin, 'http://site.invalid');
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== 'http://site.invalid' || path.startsWith('//')) return '/';
  // Signing in again from an /auth page would bounce back to it: go home instead.
  return path === '/auth' || path.startsWith('/auth/') || path.startsWith('/auth?') ? '/' : path;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** Signed (JWT, AUTH_SECRET) so it cannot be forged; HttpOnly and scoped to the callback path. */
@Injectable()
export class OAuthStateCookie {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  /** Starts a round trip: the state and PKCE challenge for the authorization URL. */
  begin(reply: FastifyReply, origin: unknown): { state: string; challenge: string } {
    const payload: StatePayload = { s: base64url(randomBytes(16)), v: base64url(randomBytes(32)), o: safeReturnPath(origin) };
    void reply.setCookie(OAUTH_COOKIE, this.jwt.sign(payload, { secret: this.config.auth.secret, expiresIn: LIFETIME_S }), {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level GET, which carries Lax cookies.
      sameSite: 'lax',
      secure: this.config.http.publicUrl.startsWith('https:'),
      path: COOKIE_PATH,
      maxAge: LIFETIME_S,
    });
    return { state: payload.s, challenge: base64url(createHash('sha256').update(payload.v).digest()) };
  }

  /** The round trip's verifier and return path when the callback's state matches the cookie; null otherwise. */
  read(request: FastifyRequest, providedState: unknown): { verifier: string; origin: string } | null {
    const cookie = request.cookies?.[OAUTH_COOKIE];
    if (!cookie || typeof providedState !== 'string') return null;
    try {
      const payload = this.jwt.verify<StatePayload>(cookie, { secret: this.config.auth.secret });
      const a = Buffer.from(payload.s);
      const b = Buffer.from(providedState);
      if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
      return { verifier: payload.v, origin: safeReturnPath(payload.o) };
    } catch {
      return null;
    }
  }

  clear(reply: FastifyReply): void {
    void reply.clearCookie(OAUTH_COOKIE, { path: COOKIE_PATH });
  }
}
