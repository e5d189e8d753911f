import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from 'src/config/app-config';
import { testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { authServiceProviders } from '../../testing/auth-test-bed';
import { TestAccounts } from '../../testing/test-accounts';
import { GoogleController } from './google.controller';
import { GoogleStrategy } from './google.strategy';
import { OAUTH_COOKIE, OAuthStateCookie } from './oauth-state';

const GOOGLE = { GOOGLE_OAUTH_LOGIN: 'true', GOOGLE_CLIENT_ID: 'client-1', GOOGLE_CLIENT_SECRET: 'secret-1', GOOGLE_AUTHORIZATION_URL: 'https://accounts.example/auth' };

/**
 * The two halves of Google sign-in as the browser meets them. A whole round trip (the code
 * exchanged, the profile read) needs a provider: test/google-auth.e2e-spec.ts runs one.
 */
describe('GoogleController (in process)', () => {
  let env: Record<string, string>;
  beforeEach(() => {
    env = GOOGLE;
  });
  const api = useControllers(() => ({
    imports: [PassportModule, JwtModule.register({})],
    controllers: [GoogleController],
    providers: [
      ...authServiceProviders({ outbox: new RecordingMailOutbox(), queue: new RecordingJobQueue() }),
      ...new TestAccounts().providers(),
      OAuthStateCookie,
      // As auth.module.ts: registered with passport only when Google sign-in is configured.
      { provide: GoogleStrategy, inject: [AppConfig, OAuthStateCookie], useFactory: (config: AppConfig, state: OAuthStateCookie) => (config.auth.google ? new GoogleStrategy(config, state) : null) },
    ],
    config: testConfig(env),
  }));

  it("sends the browser to Google with PKCE and a state, kept in an HttpOnly cookie for the callback's path only", async () => {
    const start = await api.inject({ method: 'GET', url: '/auth/google_oauth2?origin=/levels/27' });
    expect([start.statusCode, start.headers['cache-control']]).toEqual([302, 'no-store']);
    const location = new URL(String(start.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://accounts.example/auth');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: 'https://guides.example/auth/google_oauth2/callback',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(start.cookies.find((c) => c.name === OAUTH_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/auth/google_oauth2' });
  });

  it('sends a callback whose state matches no cookie of ours back to the sign-in page, signing nobody in', async () => {
    const forged = await api.inject({ method: 'GET', url: '/auth/google_oauth2/callback?code=abc&state=forged' });
    expect([forged.statusCode, forged.headers.location]).toEqual([302, '/auth/login?error=google']);
    expect(forged.cookies.find((c) => c.name === 'token')).toBeUndefined();
  });

  it('sends the browser home from both halves while Google sign-in is not configured', async () => {
    env = {};
    for (const url of ['/auth/google_oauth2', '/auth/google_oauth2/callback?code=abc&state=x']) {
      const home = await api.inject({ method: 'GET', url });
      expect([url, home.statusCode, home.headers.location]).toEqual([url, 302, '/']);
    }
  });
});
