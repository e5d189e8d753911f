import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { SessionAuthenticator } from '../../application/session-authenticator.service';
import { AdminRequiredError, CrossSiteRequestError, LoginDisabledError, SignInRequiredError, TokenInUrlError } from '../../domain/auth.errors';
import type { Session } from '../../domain/session';
import type { User } from '../../domain/user';
import { readToken } from './session-cookie';

export interface AuthContext {
  user: User;
  session: Session;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOKEN_PARAMS = ['token', 'access_token', 'auth_token'];

/**
 * Lets a request through only with a live session (Authorization header or `token` cookie) and
 * puts it on `request.auth`. Refuses tokens in the query string (they end up in logs and
 * histories) and, for state-changing requests carried by the cookie alone, any other origin (CSRF).
 */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    protected readonly auth: SessionAuthenticator,
    protected readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.config.public.settings.has_login) throw new LoginDisabledError();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (TOKEN_PARAMS.some((name) => name in query)) throw new TokenInUrlError();
    const found = readToken(request);
    if (!found) throw new SignInRequiredError();
    if (found.from === 'cookie' && !SAFE_METHODS.has(request.method) && !this.sameOrigin(request)) throw new CrossSiteRequestError();
    const session = await this.auth.authenticate(found.token);
    if (!session) throw new SignInRequiredError();
    request.auth = { ...session, token: found.token };
    // A signed-in answer is this user's alone: no browser or shared cache keeps it (admin included).
    void context.switchToHttp().getResponse<FastifyReply>().header('cache-control', 'no-store');
    // A client that only has the cookie (a new tab) learns its token from this header (spec: the
    // browser keeps the token and replaces it whenever a response carries one).
    if (found.from === 'cookie') void context.switchToHttp().getResponse<FastifyReply>().header('authorization', `Bearer ${found.token}`);
    return true;
  }

  private sameOrigin(request: FastifyRequest): boolean {
    return isSiteOrigin(request.headers.origin ?? request.headers.referer, this.config.http.origins);
  }
}

/** Is `origin` (an Origin or Referer header) one of the site's own origins (AppConfig http.origins)? */
export function isSiteOrigin(origin: string | undefined, origins: readonly string[]): boolean {
  if (typeof origin !== 'string') return false;
  try {
    return origins.includes(new URL(origin).origin);
  } catch {
    return false;
  }
}

/**
 * Anonymous account writes (sign-in, sign-up, resend, confirm, password forgot and reset) from a
 * browser must come from this site: another site's page must not sign a visitor into an account of
 * its choosing. A browser says where a request comes from (`Origin`, `Sec-Fetch-Site`); a request
 * with neither is not a browser's (curl, a native app), cannot carry a visitor's cookies, and passes.
 */
@Injectable()
export class SameOriginWritesGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    const { origin, 'sec-fetch-site': site } = request.headers;
    if (origin !== undefined ? !isSiteOrigin(origin, this.config.http.origins) : site !== undefined && site !== 'same-origin') {
      throw new CrossSiteRequestError();
    }
    return true;
  }
}

/**
 * Like SignedInGuard, but "nobody is signed in" is an answer, not an error: a request with no token,
 * or only a cookie whose session has ended, passes without `request.auth`. A bearer token that does
 * not work is still refused (its holder believes it is signed in).
 */
@Injectable()
export class SessionIfAnyGuard extends SignedInGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (readToken(context.switchToHttp().getRequest<FastifyRequest>())?.from === 'header') return super.canActivate(context);
    try {
      return await super.canActivate(context);
    } catch (error) {
      if (error instanceof SignInRequiredError) return true;
      throw error;
    }
  }
}

/** A signed-in user whose email is in ADMIN_EMAILS: guards the ops endpoints. */
@Injectable()
export class AdminGuard extends SignedInGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const { user } = context.switchToHttp().getRequest<FastifyRequest>().auth!;
    if (!(await this.auth.isAdmin(user))) throw new AdminRequiredError();
    return true;
  }
}

/**
 * For server-rendered admin pages and ops screens, which answer 404 to everyone else: is the
 * request's session (cookie or header) an admin's? Read-only, so no origin check is needed.
 */
@Injectable()
export class AdminAccess {
  constructor(
    private readonly auth: SessionAuthenticator,
    private readonly config: AppConfig,
  ) {}

  async isAdmin(request: FastifyRequest): Promise<boolean> {
    if (!this.config.public.settings.has_login) return false;
    const found = readToken(request);
    if (!found) return false;
    const session = await this.auth.authenticate(found.token);
    return session !== null && (await this.auth.isAdmin(session.user));
  }
}
