import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import {
  emailOnlySchema,
  linkTokenSchema,
  passwordResetSchema,
  signInSchema,
  signUpSchema,
  type PasswordResetInput,
  type SignInInput,
  type SignUpInput,
} from 'src/contracts/auth.schema';
import { ApiJsonBody } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { AuthService } from '../../application/auth.service';
import { SessionAuthenticator } from '../../application/session-authenticator.service';
import { toUserView, type UserView } from '../../domain/user';
import { SameOriginWritesGuard, SessionIfAnyGuard, SignedInGuard } from './auth.guards';
import { clearSessionCookie, setSessionCookie, TOKEN_COOKIE } from './session-cookie';

const HOUR = 60 * 60_000;

/** user_info's answer when nobody is signed in (spec: signed in means userInfo has an email). */
interface SignedOutView {
  email: null;
}

/**
 * Email-and-password accounts. Answers that could tell whether an address has an account (sign-up,
 * resend, forgot password) are the same either way. Every route is rate limited per client IP;
 * the service adds per-address limits. Writes from a browser must come from this site (SameOriginWritesGuard).
 */
@ApiTags('auth')
@Controller()
@UseGuards(SameOriginWritesGuard)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly config: AppConfig,
    private readonly sessions: SessionAuthenticator,
  ) {}

  @Post('auth/sign_up')
  @HttpCode(202)
  @RateLimit(10, HOUR)
  @ApiOperation({ summary: 'Create an account; a confirmation link is emailed' })
  @ApiJsonBody(signUpSchema)
  async signUp(@Body(new ZodPipe(signUpSchema)) input: SignUpInput) {
    await this.auth.signUp(input);
    return { message: 'Check your inbox: we sent you a confirmation link.' };
  }

  @Post('auth/confirmation')
  @HttpCode(202)
  @RateLimit(10, HOUR)
  @ApiOperation({ summary: 'Send the confirmation link again (same answer whatever the address)' })
  @ApiJsonBody(emailOnlySchema)
  async resend(@Body(new ZodPipe(emailOnlySchema)) input: { email: string }) {
    await this.auth.resendConfirmation(input.email);
    return { message: 'If this address has an unconfirmed account, a new link is on its way.' };
  }

  @Post('auth/confirm')
  @HttpCode(200)
  @RateLimit(30, HOUR)
  @ApiOperation({ summary: 'Confirm an email address with the token of its link' })
  @ApiJsonBody(linkTokenSchema)
  async confirm(@Body(new ZodPipe(linkTokenSchema)) input: { token: string }) {
    await this.auth.confirmEmail(input.token);
    return { message: 'Your email is confirmed. You can sign in now.' };
  }

  @Post('auth/sign_in')
  @HttpCode(200)
  @RateLimit(20, 15 * 60_000)
  @ApiOperation({ summary: 'Sign in: the user in the body, the token in the Authorization header and the token cookie' })
  @ApiJsonBody(signInSchema)
  async signIn(
    @Body(new ZodPipe(signInSchema)) input: SignInInput,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserView> {
    // request.ip honours TRUST_PROXY: the client's address behind the configured proxies only.
    const { user, token } = await this.auth.signIn(input, request.ip);
    return this.signedIn(reply, user, token);
  }

  @Post('auth/sign_in_link')
  @HttpCode(202)
  @RateLimit(10, HOUR)
  @ApiOperation({ summary: 'Email a one-time sign-in link to a confirmed account (same answer whatever the address)' })
  @ApiJsonBody(emailOnlySchema)
  async requestSignInLink(@Body(new ZodPipe(emailOnlySchema)) input: { email: string }) {
    await this.auth.requestSignInLink(input.email);
    return { message: 'If this address has an account, a sign-in link is on its way. It works once, within 15 minutes.' };
  }

  @Post('auth/sign_in_with_link')
  @HttpCode(200)
  @RateLimit(20, HOUR)
  @ApiOperation({ summary: 'Sign in with the token of an emailed sign-in link (as sign_in answers)' })
  @ApiJsonBody(linkTokenSchema)
  async signInWithLink(
    @Body(new ZodPipe(linkTokenSchema)) input: { token: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserView> {
    const { user, token } = await this.auth.signInWithLink(input.token);
    return this.signedIn(reply, user, token);
  }

  @Delete('auth/sign_out')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Sign out: the session stops working at once' })
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.auth.signOut(request.auth!.token);
    clearSessionCookie(reply, this.config);
    return { message: 'Sign out success' };
  }

  @Post('auth/password')
  @HttpCode(202)
  @RateLimit(10, HOUR)
  @ApiOperation({ summary: 'Email a password reset link (same answer whatever the address)' })
  @ApiJsonBody(emailOnlySchema)
  async forgotPassword(@Body(new ZodPipe(emailOnlySchema)) input: { email: string }) {
    await this.auth.requestPasswordReset(input.email);
    return { message: 'If this address has an account, a reset link is on its way.' };
  }

  @Put('auth/password')
  @HttpCode(200)
  @RateLimit(20, HOUR)
  @ApiOperation({ summary: 'Set a new password with a reset token; signs out every session' })
  @ApiJsonBody(passwordResetSchema)
  async resetPassword(@Body(new ZodPipe(passwordResetSchema)) input: PasswordResetInput) {
    await this.auth.resetPassword(input);
    return { message: 'Your password is changed. Please sign in with it.' };
  }

  @Get('api/v1/user_info')
  @RateLimit(120, 60_000)
  @UseGuards(SessionIfAnyGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'The signed-in user; {"email": null} when nobody is (a signed-out page load is not an error)' })
  async userInfo(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserView | SignedOutView> {
    void reply.header('cache-control', 'no-store');
    if (!request.auth) {
      // A cookie whose session has ended is dropped, so the next load does not present it again.
      if (request.cookies?.[TOKEN_COOKIE]) clearSessionCookie(reply, this.config);
      return { email: null };
    }
    return toUserView(request.auth.user, await this.sessions.isAdmin(request.auth.user));
  }

  /** A new session's answer, for a password and a link alike: the cookie, the header, the user. */
  private async signedIn(reply: FastifyReply, user: Parameters<typeof toUserView>[0], token: string): Promise<UserView> {
    setSessionCookie(reply, this.config, token);
    void reply.header('authorization', `Bearer ${token}`).header('cache-control', 'no-store');
    return toUserView(user, await this.sessions.isAdmin(user));
  }
}
