import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CreditsView, LedgerEventView, Paged } from 'src/contracts/billing';
import { adminGrantSchema, creditsViewSchema, idempotencyKeySchema, ledgerPageSchema, pageQuerySchema } from 'src/contracts/billing.schema';
import { AdminGuard, SessionAuthenticator, SignedInGuard } from 'src/modules/auth';
import { ApiJsonBody, ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { CreditsService } from '../../application/credits.service';
import { UnknownAccountError } from '../../domain/credits.errors';
import { PaymentsEnabledGuard } from './payments-enabled.guard';


/** The signed-in user's credits (balance, lots, usage, history), and an admin's grants. */
@ApiTags('credits')
@ApiSecurity('session')
@Controller('api/v1')
export class CreditsController {
  constructor(
    private readonly credits: CreditsService,
    private readonly auth: SessionAuthenticator,
  ) {}

  @Get('credits')
  @RateLimit(120, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiOperation({ summary: 'Balance, spendable lots (soonest to expire first) and credits used per day over 30 days' })
  @ApiJsonResponse(creditsViewSchema)
  view(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CreditsView> {
    void reply.header('cache-control', 'no-store');
    return this.credits.view(request.auth!.user.id);
  }

  @Get('credits/history')
  @RateLimit(120, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiOperation({ summary: 'Grants, spends, refunds, take-backs and expiries, newest first (20 a page)' })
  @ApiJsonResponse(ledgerPageSchema)
  history(
    @Req() request: FastifyRequest,
    @Query(new ZodPipe(pageQuerySchema)) query: { page: number },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Paged<LedgerEventView>> {
    void reply.header('cache-control', 'no-store');
    return this.credits.history(request.auth!.user.id, query.page);
  }

  @Post('admin/credits')
  @HttpCode(201)
  @RateLimit(60, 60_000)
  @UseGuards(PaymentsEnabledGuard, AdminGuard)
  @ApiOperation({ summary: 'Admin: grant credits to an account with a reason (an Idempotency-Key header makes a retry grant once)' })
  @ApiJsonBody(adminGrantSchema)
  async grant(
    @Req() request: FastifyRequest,
    @Body(new ZodPipe(adminGrantSchema)) input: z.output<typeof adminGrantSchema>,
    @Headers('idempotency-key') key: string | undefined,
  ): Promise<{ granted: boolean }> {
    const reference = new ZodPipe(idempotencyKeySchema.optional()).transform(key) ?? randomUUID();
    const userId = await this.auth.userIdByEmail(input.email);
    if (!userId) throw new UnknownAccountError();
    const granted = await this.credits.grantByAdmin({
      userId,
      credits: input.credits,
      validityDays: input.validity_days,
      reason: input.reason,
      reference,
      adminId: request.auth!.user.id,
    });
    return { granted };
  }
}
