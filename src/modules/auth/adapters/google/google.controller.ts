import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Injectable, Logger, Query, Req, Res, UseGuards, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { AuthService } from '../../application/auth.service';
import { setSessionCookie } from '../http/session-cookie';
import { googleCallbackUrl, type GoogleProfile } from './google.strategy';
import { OAuthStateCookie } from './oauth-state';

/** Runs passport's Google strategy on the callback; a failure leaves `request.user` empty instead of throwing. */
@Injectable()
class GoogleCallbackGuard extends AuthGuard('google') {
  constructor(private readonly config: AppConfig) {
    super();
  }

  /** Without Google sign-in there is no strategy to run: the callback itself sends the visitor home. */
  override canActivate(context: ExecutionContext) {
    return this.config.auth.google ? super.canActivate(context) : true;
  }

  override handleRequest<T>(error: unknown, user: T): T {
    return (error ? null : user) as T;
  }

  override getRequest(context: ExecutionContext) {
    return context.switchToHttp().getRequest<FastifyRequest>();
  }
}

/** Google sign-in: browser navigations only (spec: `/auth/google_oauth2?origin=<current path>`). */
@ApiExcludeController()
@Controller('auth/google_oauth2')
export class GoogleController {
  private readonly logger = new Logger('GoogleSignIn');

  constructor(
    private readonly auth: AuthService,
    private readonly state: OAuthStateCookie,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @RateLimit(30, 15 * 60_000)
  start(@Query('origin') origin: unknown, @Res() reply: FastifyReply): void {
    const google = this.config.auth.google;
    if (!this.config.public.settings.has_login || !google) {
      void reply.redirect('/', 302);
      return;
    }
    const { state, challenge } = this.state.begin(reply, origin);
    const url = new URL(google.authorizationUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: google.clientId,
      redirect_uri: googleCallbackUrl(this.config),
      scope: 'openid email profile',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    void reply.header('cache-control', 'no-store').redirect(url.toString(), 302);
  }

  @Get('callback')
  @RateLimit(30, 15 * 60_000)
  @UseGuards(GoogleCallbackGuard)
  async callback(@Req() request: FastifyRequest & { user?: GoogleProfile | null }, @Res() reply: FastifyReply): Promise<void> {
    const roundTrip = request.oauthRoundTrip;
    this.state.clear(reply);
    void reply.header('cache-control', 'no-store');
    if (!this.config.public.settings.has_login || !this.config.auth.google) {
      void reply.redirect('/', 302);
      return;
    }
    if (!request.user || !roundTrip) {
      void reply.redirect('/auth/login?error=google', 302);
      return;
    }
    try {
      const { token, user } = await this.auth.signInWithGoogle(request.user);
      setSessionCookie(reply, this.config, token);
      this.logger.log(`Google sign-in for user ${user.id}`);
      void reply.redirect(roundTrip.origin, 302);
    } catch {
      void reply.redirect('/auth/login?error=google', 302);
    }
  }
}
