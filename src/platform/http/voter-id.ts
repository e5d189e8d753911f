import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'vid';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The anonymous browser id behind "one vote per browser": a random value in an HttpOnly cookie,
 * created on the first vote. Only its hash is stored. `secure` like the session cookie: when PUBLIC_URL
 * is https (behind a TLS-terminating proxy the request itself may arrive as http).
 */
export function voterIdOf(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = request.cookies?.[COOKIE];
  if (existing && /^[A-Za-z0-9_-]{22,64}$/.test(existing)) return existing;
  const id = randomBytes(16).toString('base64url');
  void reply.setCookie(COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: ONE_YEAR_SECONDS,
  });
  return id;
}
