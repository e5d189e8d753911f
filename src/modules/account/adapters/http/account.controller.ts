import { Body, Controller, Delete, Get, HttpCode, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { accountViewSchema, type AccountView } from 'src/contracts/account';
import type { AccountExport } from 'src/contracts/account-export';
import { accountDeletionSchema, passwordChangeSchema, type PasswordChangeInput } from 'src/contracts/auth.schema';
import { AuthService, SignedInGuard } from 'src/modules/auth';
import { ApiJsonBody, ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { AccountService } from '../../application/account.service';

const deletedSchema = z.object({ deleted: z.literal(true), kept: z.string().describe('What stays after deletion, and why') });

/** /account: the account, a new password, "Download my data" and "Delete my account". */
@ApiTags('account')
@ApiSecurity('session')
@Controller('api/v1/account')
@UseGuards(SignedInGuard)
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly auth: AuthService,
  ) {}

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Your account: email, sign-in methods, when this session signed in, and what a deletion keeps' })
  @ApiJsonResponse(accountViewSchema)
  view(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountView> {
    void reply.header('cache-control', 'no-store');
    return this.accounts.view(request.auth!);
  }

  @Put('password')
  @HttpCode(204)
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: 'A new password, proven with the current one (or by a sign-in within 15 minutes); your other sessions end. 403 AUTH.REAUTHENTICATION_REQUIRED otherwise' })
  @ApiJsonBody(passwordChangeSchema)
  async password(@Req() request: FastifyRequest, @Body(new ZodPipe(passwordChangeSchema)) input: PasswordChangeInput): Promise<void> {
    const { user, session } = request.auth!;
    await this.auth.changePassword(user, session, { current: input.current_password || undefined, password: input.password });
  }

  @Get('export')
  @RateLimit(10, 60_000)
  @ApiOperation({ summary: 'Download my data: one JSON file of everything the site holds about you (no secret or token)' })
  async export(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountExport> {
    void reply.header('cache-control', 'no-store');
    void reply.header('content-disposition', `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`);
    return this.accounts.export(request.auth!.user.id);
  }

  @Delete()
  @HttpCode(200)
  @RateLimit(10, 60_000)
  @ApiOperation({
    summary:
      'Delete your account: with {password}, or {} within 15 minutes of a sign-in (an emailed sign-in link). Refused while an image job converts (409 ACCOUNT.IMAGE_JOB_RUNNING). Orders stay, without your address',
  })
  @ApiJsonBody(accountDeletionSchema)
  @ApiJsonResponse(deletedSchema)
  delete(@Req() request: FastifyRequest, @Body(new ZodPipe(accountDeletionSchema.optional())) input: { password?: string } | undefined): Promise<{ deleted: true; kept: string }> {
    return this.accounts.delete(request.auth!, input?.password || undefined);
  }
}
