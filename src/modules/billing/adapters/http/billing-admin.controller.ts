import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ORDER_STATUSES, type AdminOrderDetail, type AdminOrderView, type OrderStatus, type OrderView, type Paged, type RefusedEventView } from 'src/contracts/billing';
import { adminOrderDetailSchema, adminOrderPageSchema, adminRefundSchema, idempotencyKeySchema, orderViewSchema, pageQuerySchema, refusedEventPageSchema } from 'src/contracts/billing.schema';
import { AdminGuard } from 'src/modules/auth';
import { PaymentsEnabledGuard } from 'src/modules/credits';
import { ApiJsonResponse, jsonSchema } from 'src/platform/http/openapi-schema';
import { filterText } from 'src/contracts/search-text';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { AdminOrdersService } from '../../application/admin-orders.service';
import { RefundService } from '../../application/refund.service';

const listSchema = z.strictObject({
  email: z.string().max(256).optional().transform((v) => filterText(v, 256)),
  number: z.string().max(20).optional().transform((v) => filterText(v, 20)),
  status: z.enum(ORDER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** Admin: every order (searchable), one order's trail, and refunds through the payment service (the order's unspent credits follow). */
@ApiTags('admin')
@ApiSecurity('session')
@Controller('api/v1/admin/orders')
@UseGuards(PaymentsEnabledGuard, AdminGuard)
export class BillingAdminController {
  constructor(
    private readonly orders: AdminOrdersService,
    private readonly refunds: RefundService,
  ) {}

  @Get()
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: "Admin: all orders, newest first, with the buyer's address; search by email (part of it), order number (part of it) and status" })
  @ApiJsonResponse(adminOrderPageSchema)
  list(@Query(new ZodPipe(listSchema)) query: { email?: string; number?: string; status?: OrderStatus; page: number }): Promise<Paged<AdminOrderView>> {
    return this.orders.listAllOrders({ email: query.email, number: query.number, status: query.status }, query.page);
  }

  @Get(':id')
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Admin: one order with its credits granted, spent and taken back, its refunds and its payment events' })
  @ApiJsonResponse(adminOrderDetailSchema)
  detail(@Param('id') id: string): Promise<AdminOrderDetail> {
    return this.orders.adminOrder(id);
  }

  @Post(':id/refund')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @ApiOperation({
    summary:
      'Admin: refund an order, amount_cents of it or (no body, or {}) all that is left. The Idempotency-Key header is required: the same key again refunds nothing more and answers with the order',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: '8-100 letters, digits, "_", ".", ":" or "-"; one per refund' })
  @ApiBody({ required: false, schema: jsonSchema(adminRefundSchema, 'input') })
  @ApiJsonResponse(orderViewSchema)
  refund(
    @Req() request: FastifyRequest,
    @Param('id') id: string,
    @Headers('idempotency-key') key: string | undefined,
    @Body(new ZodPipe(adminRefundSchema.optional())) input: { amount_cents?: number } | undefined,
  ): Promise<OrderView> {
    const idempotencyKey = new ZodPipe(idempotencyKeySchema).transform(key);
    return this.refunds.refund(id, { amountCents: input?.amount_cents, idempotencyKey, adminId: request.auth!.user.id });
  }
}

/** Admin: signed Stripe events acknowledged without being applied (unreadable, or of the other mode), with the reason. */
@ApiTags('admin')
@ApiSecurity('session')
@Controller('api/v1/admin/payment-events')
@UseGuards(PaymentsEnabledGuard, AdminGuard)
export class PaymentEventsAdminController {
  constructor(private readonly orders: AdminOrdersService) {}

  @Get('refused')
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Admin: signed webhook events that were acknowledged but not applied (unreadable, or live/test mode not ours), newest first' })
  @ApiJsonResponse(refusedEventPageSchema)
  refused(@Query(new ZodPipe(pageQuerySchema)) query: { page: number }): Promise<Paged<RefusedEventView>> {
    return this.orders.refusedEvents(query.page);
  }
}
