import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportView, OrderExportRow, OrderView, ReceiptView } from 'src/contracts/billing';
import { exportQuerySchema, orderExportSchema, orderViewSchema, receiptSchema } from 'src/contracts/billing.schema';
import { SessionAuthenticator, SignedInGuard } from 'src/modules/auth';
import { PaymentsEnabledGuard } from 'src/modules/credits';
import { ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { ordersCsv, ReceiptsService } from '../../application/receipts.service';
import { RefundService } from '../../application/refund.service';

/** Sends an export as a CSV download or as JSON (?format=). */
export function sendExport<Row>(reply: FastifyReply, format: 'csv' | 'json', name: string, data: ExportView<Row>, csv: (data: ExportView<Row>) => string): ExportView<Row> | string {
  void reply.header('cache-control', 'no-store');
  if (format === 'json') return data;
  void reply.header('content-type', 'text/csv; charset=utf-8');
  void reply.header('content-disposition', `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`);
  return csv(data);
}

/** The buyer's receipts, their own refunds under the refund rule, and the orders export. */
@ApiTags('billing')
@ApiSecurity('session')
@Controller('api/v1')
@UseGuards(PaymentsEnabledGuard, SignedInGuard)
export class ReceiptsController {
  constructor(
    private readonly receipts: ReceiptsService,
    private readonly refunds: RefundService,
    private readonly sessions: SessionAuthenticator,
  ) {}

  @Get('orders/:id/receipt')
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: "A paid order's receipt: seller, buyer, items, amount, payment method, refunds with dates (its buyer's, or any for an admin; 404 otherwise)" })
  @ApiJsonResponse(receiptSchema)
  async receipt(@Req() request: FastifyRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<ReceiptView> {
    void reply.header('cache-control', 'no-store');
    const { user } = request.auth!;
    return this.receipts.receipt({ userId: user.id, admin: await this.sessions.isAdmin(user) }, id);
  }

  @Post('orders/:id/refund')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @ApiOperation({
    summary:
      'Refund your own pack under the refund rule (pricing: refund_rule): all of it, its unused credits taken back. Again (or at once from ten tabs): the same refunded order; 409 BILLING.REFUND_NOT_POSSIBLE says why not',
  })
  @ApiJsonResponse(orderViewSchema)
  refund(@Req() request: FastifyRequest, @Param('id') id: string): Promise<OrderView> {
    return this.refunds.refundOwn(request.auth!.user.id, id);
  }

  @Get('exports/orders')
  @RateLimit(30, 60_000)
  @ApiOperation({ summary: 'Every order of yours, oldest first, with totals: a CSV download (format=csv, the default) or JSON; dates in tz (IANA, default UTC)' })
  @ApiProduces('text/csv', 'application/json')
  @ApiJsonResponse(orderExportSchema)
  async orders(
    @Req() request: FastifyRequest,
    @Query(new ZodPipe(exportQuerySchema)) query: { format: 'csv' | 'json'; tz: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExportView<OrderExportRow> | string> {
    return sendExport(reply, query.format, 'orders', await this.receipts.exportOrders(request.auth!.user.id, query.tz), ordersCsv);
  }
}
