import { Body, Controller, Get, HttpCode, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { mailPreferencesInputSchema, mailPreferencesSchema, unsubscribeQuerySchema, unsubscribeViewSchema, type MailPreferencesView, type UnsubscribeView } from 'src/contracts/account';
import type { CreditExportRow, ExportView } from 'src/contracts/billing';
import { creditExportSchema, exportQuerySchema } from 'src/contracts/billing.schema';
import { SignedInGuard } from 'src/modules/auth';
import { ApiJsonBody, ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { CreditRemindersService, statementCsv } from '../../application/credit-reminders.service';
import type { MailPreferences } from '../../domain/reminder-store.port';
import { PaymentsEnabledGuard } from './payments-enabled.guard';

const toView = (p: MailPreferences): MailPreferencesView => ({ low_balance: p.lowBalance, expiry: p.expiry });

/** The reminder mails' switches, their one-click unsubscribe, and the credit history export. */
@ApiTags('credits')
@Controller('api/v1')
export class RemindersController {
  constructor(private readonly reminders: CreditRemindersService) {}

  @Get('account/mail-preferences')
  @RateLimit(120, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Your reminder mails: low balance after a spend, and credits about to expire' })
  @ApiJsonResponse(mailPreferencesSchema)
  async preferences(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MailPreferencesView> {
    void reply.header('cache-control', 'no-store');
    return toView(await this.reminders.preferences(request.auth!.user.id));
  }

  @Put('account/mail-preferences')
  @RateLimit(60, 60_000)
  @UseGuards(SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Switch your reminder mails on or off' })
  @ApiJsonBody(mailPreferencesInputSchema)
  @ApiJsonResponse(mailPreferencesSchema)
  async setPreferences(@Req() request: FastifyRequest, @Body(new ZodPipe(mailPreferencesInputSchema)) input: z.output<typeof mailPreferencesInputSchema>): Promise<MailPreferencesView> {
    return toView(await this.reminders.setPreferences(request.auth!.user.id, { lowBalance: input.low_balance, expiry: input.expiry }));
  }

  @Post('reminders/unsubscribe')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @ApiOperation({ summary: "One-click unsubscribe (RFC 8058) from a reminder mail's signed link; no sign-in. A forged link: 400 CREDITS.INVALID_UNSUBSCRIBE_LINK" })
  @ApiJsonResponse(unsubscribeViewSchema)
  async unsubscribe(@Query(new ZodPipe(unsubscribeQuerySchema)) query: { token: string }): Promise<UnsubscribeView> {
    return { unsubscribed: (await this.reminders.unsubscribe(query.token)).kind };
  }

  @Get('exports/credit-history')
  @RateLimit(30, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Every change of your credits, oldest first, with its lot, reason and the balance after it, and totals: CSV (format=csv, the default) or JSON; dates in tz (IANA, default UTC)' })
  @ApiProduces('text/csv', 'application/json')
  @ApiJsonResponse(creditExportSchema)
  async creditHistory(
    @Req() request: FastifyRequest,
    @Query(new ZodPipe(exportQuerySchema)) query: { format: 'csv' | 'json'; tz: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExportView<CreditExportRow> | string> {
    void reply.header('cache-control', 'no-store');
    const data = await this.reminders.statement(request.auth!.user.id, query.tz);
    if (query.format === 'json') return data;
    void reply.header('content-type', 'text/csv; charset=utf-8');
    void reply.header('content-disposition', `attachment; filename="credit-history-${new Date().toISOString().slice(0, 10)}.csv"`);
    return statementCsv(data);
  }
}
