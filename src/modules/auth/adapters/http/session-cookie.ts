import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from 'src/config/app-config';

/** The session cookie (spec: named `token`). HttpOnly: page scripts get the token from the Authorization response header instead. */
export const TOKEN_COOKIE = 'token';

export function setSessionCookie(reply: FastifyReply, config: AppConfig, token: string): void {
  void reply.setCookie(TOKEN_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.http.publicUrl.startsWith('https:'),
    path: '/',
    maxAge: Math.floor(config.auth.sessionMaxMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig): void {
  void reply.clearCookie(TOKEN_COOKIE, { httpOnly: true, sameSite: 'lax', secure: config.http.publicUrl.startsWith('https:'), path: '/' });
}

/** Where the request's token came from: the Authorization header wins over the cookie. */
export function readToken(request: FastifyRequest): { token: string; from: 'header' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return { token: header.slice(7).trim(), from: 'header' };
  const cookie = request.cookies?.[TOKEN_COOKIE];
  return cookie ? { token: cookie, from: 'cookie' } : null;
}
