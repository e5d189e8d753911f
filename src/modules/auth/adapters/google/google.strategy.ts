import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy, type StateStore } from 'passport-oauth2';
import { AppConfig } from 'src/config/app-config';
import { OAuthStateCookie } from './oauth-state';

export interface GoogleProfile {
  subject: string;
  email?: string;
  emailVerified: boolean;
}

export const googleCallbackUrl = (config: AppConfig) => `${config.http.publicUrl}/auth/google_oauth2/callback`;

/**
 * OAuth 2 / OpenID Connect code flow with PKCE, through passport (the callback half: code
 * exchange and profile). The first half, the redirect to the provider, is built by the controller,
 * because passport's redirect writes to an Express response. Endpoints come from config, so tests
 * point them at a local mock provider.
 */
@Injectable()
export class GoogleStrategy extends PassportStrategy(Strategy, 'google') {
  private readonly userInfoUrl: string;

  constructor(config: AppConfig, state: OAuthStateCookie) {
    const google = config.auth.google!;
    // passport-oauth2 asks the store to check the callback's state and hand back the PKCE verifier.
    const store: StateStore = {
      store: (_req: unknown, _verifier: unknown, _state: unknown, _meta: unknown, callback: (err: Error | null, state?: string) => void) =>
        callback(new Error('The redirect to the provider is built by the controller')),
      verify: (req: unknown, providedState: string, callback: (err: Error | null, ok: string | false, info?: unknown) => void) => {
        const request = req as FastifyRequest;
        const found = state.read(request, providedState);
        // Kept for the controller, so the cookie is verified once.
        if (found) request.oauthRoundTrip = { origin: found.origin };
        callback(null, found ? found.verifier : false, found ? undefined : { message: 'State mismatch' });
      },
    } as unknown as StateStore;
    super({
      authorizationURL: google.authorizationUrl,
      tokenURL: google.tokenUrl,
      clientID: google.clientId,
      clientSecret: google.clientSecret,
      callbackURL: googleCallbackUrl(config),
      scope: ['openid', 'email', 'profile'],
      pkce: true,
      state: true,
      store,
    });
    this.userInfoUrl = google.userInfoUrl;
  }

  /** OpenID Connect userinfo: `sub`, `email`, `email_verified`. */
  override userProfile(accessToken: string, done: (err?: unknown, profile?: GoogleProfile) => void): void {
    this._oauth2.useAuthorizationHeaderforGET(true);
    this._oauth2.get(this.userInfoUrl, accessToken, (error, body) => {
      if (error) return done(new Error('Could not load the Google profile'));
      try {
        const info = JSON.parse(String(body)) as { sub?: unknown; email?: unknown; email_verified?: unknown };
        if (typeof info.sub !== 'string' || !info.sub || info.sub.length > 255) return done(new Error('The Google profile has no subject'));
        done(null, {
          subject: info.sub,
          email: typeof info.email === 'string' && info.email.length <= 256 ? info.email : undefined,
          emailVerified: info.email_verified === true || info.email_verified === 'true',
        });
      } catch {
        done(new Error('The Google profile is not JSON'));
      }
    });
  }

  validate(_accessToken: string, _refreshToken: string, profile: GoogleProfile): GoogleProfile {
    return profile;
  }
}
