import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CheckoutInput, CheckoutView, OrderView, Paged, PricingData } from 'src/contracts/billing';
import { checkoutSchema, checkoutViewSchema, orderPageSchema, orderViewSchema, pageQuerySchema, pricingSchema } from 'src/contracts/billing.schema';
import { SignedInGuard } from 'src/modules/auth';
import { PaymentsDisabledError, PaymentsEnabledGuard } from 'src/modules/credits';
import { ApiJsonBody, ApiJsonResponse } from 'src/platform/http/openapi-schema';
import { ZodPipe } from 'src/platform/http/zod.pipe';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { CheckoutService } from '../../application/checkout.service';

const testPaymentSchema = z.strictObject({ result: z.enum(['paid', 'canceled'], { error: 'result is "paid" or "canceled"' }) });

/** Pricing, checkout and the signed-in user's orders. */
@ApiTags('billing')
@Controller('api/v1')
export class BillingController {
  constructor(private readonly checkouts: CheckoutService) {}

  @Get('pricing')
  @RateLimit(120, 60_000)
  @ApiOperation({ summary: 'Credit packs, the free trial and the donation terms (prices in USD cents)' })
  @ApiJsonResponse(pricingSchema)
  pricing(): PricingData {
    const pricing = this.checkouts.pricing();
    if (!pricing) throw new PaymentsDisabledError();
    return pricing;
  }

  @Post('checkout')
  @HttpCode(201)
  @RateLimit(20, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'Start paying for a pack ({pack_id}) or a donation ({donation_usd}, whole dollars 1-500): the browser goes to `url`' })
  @ApiJsonBody(checkoutSchema)
  @ApiJsonResponse(checkoutViewSchema, 201)
  checkout(@Body(new ZodPipe(checkoutSchema)) input: CheckoutInput, @Req() request: FastifyRequest): Promise<CheckoutView> {
    const { user } = request.auth!;
    return this.checkouts.checkout({ id: user.id, email: user.email }, input);
  }

  @Get('orders')
  @RateLimit(120, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'The billing history: orders newest first, 20 a page' })
  @ApiJsonResponse(orderPageSchema)
  orders(
    @Req() request: FastifyRequest,
    @Query(new ZodPipe(pageQuerySchema)) query: { page: number },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Paged<OrderView>> {
    void reply.header('cache-control', 'no-store');
    return this.checkouts.listOrders(request.auth!.user.id, query.page);
  }

  @Get('orders/:id')
  @RateLimit(240, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: "One of the user's orders (404 for anyone else's); a pending order is checked with the payment service first" })
  @ApiJsonResponse(orderViewSchema)
  order(@Req() request: FastifyRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<OrderView> {
    void reply.header('cache-control', 'no-store');
    return this.checkouts.order(request.auth!.user.id, id);
  }

  @Post('orders/:id/resume')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'A pending order: where to finish paying it (409 BILLING.NOT_PAYABLE once it cannot be paid)' })
  @ApiJsonResponse(checkoutViewSchema)
  resume(@Req() request: FastifyRequest, @Param('id') id: string): Promise<CheckoutView> {
    return this.checkouts.resumeCheckout(request.auth!.user.id, id);
  }

  @Post('orders/:id/cancel')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'A pending order: close its checkout and cancel it (again: the same answer; a paid order: 409)' })
  @ApiJsonResponse(orderViewSchema)
  cancel(@Req() request: FastifyRequest, @Param('id') id: string): Promise<OrderView> {
    return this.checkouts.cancelCheckout(request.auth!.user.id, id);
  }

  @Post('orders/:id/test_payment')
  @HttpCode(200)
  @RateLimit(30, 60_000)
  @UseGuards(PaymentsEnabledGuard, SignedInGuard)
  @ApiSecurity('session')
  @ApiOperation({ summary: 'The local test checkout (only without STRIPE_SECRET_KEY): pay or cancel an order, no real money' })
  @ApiJsonBody(testPaymentSchema)
  @ApiJsonResponse(orderViewSchema)
  testPayment(@Req() request: FastifyRequest, @Param('id') id: string, @Body(new ZodPipe(testPaymentSchema)) input: { result: 'paid' | 'canceled' }): Promise<OrderView> {
    return this.checkouts.testPayment(request.auth!.user.id, id, input.result);
  }
}
