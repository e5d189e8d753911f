import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { ORDER_STATUSES, type OrderStatus } from 'src/contracts/billing';
import { adminRefundSchema, orderViewSchema } from 'src/contracts/billing.schema';
import { AdminGuard } from 'src/modules/auth/auth-guards.module';
import { PaymentsEnabledGuard } from 'src/modules/credits/credits.module';
import { ApiJsonBody, ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { BillingService } from '../../application/billing.service';

const listSchema = z.strictObject({
  status: z.enum(ORDER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** Admin: every order, and refunds through the payment service (the order's unspent credits follow). */
@ApiTags('admin')
@ApiSecurity('session')
@Controller('api/v1/admin/orders')
@UseGuards(PaymentsEnabledGuard, AdminGuard)
export class BillingAdminController {
  constructor(private readonly billing: BillingService) {}

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Admin: all orders, newest first, optionally by status' })
  list(@Query(new ZodPipe(listSchema)) query: { status?: OrderStatus; page: number }) {
    return this.billing.listAllOrders({ status: query.status }, query.page);
  }

  @Post(':id/refund')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @ApiOperation({ summary: 'Admin: refund an order, all that is left or amount_cents of it' })
  @ApiJsonBody(adminRefundSchema)
  @ApiJsonResponse(orderViewSchema)
  refund(@Param('id') id: string, @Body(new ZodPipe(adminRefundSchema)) input: { amount_cents?: number }) {
    return this.billing.refund(id, input.amount_cents);
  }
}
