import { Controller, Headers, HttpCode, Post, Req, type RawBodyRequest } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RateLimit } from 'src/platform/rate-limit/rate-limit';
import { PaymentEventsService } from '../../application/payment-events.service';
import { InvalidWebhookError } from '../../domain/billing.errors';

/**
 * Stripe's webhook: the signature is checked on the raw body (5 minutes of tolerance), each event
 * id applies once, and the answer comes as soon as the event is stored. A 503 (an event that is
 * early, say a refund before its payment) makes Stripe deliver it again later.
 */
@ApiTags('billing')
@Controller('api/v1/payments')
export class StripeWebhookController {
  constructor(private readonly events: PaymentEventsService) {}

  @Post('stripe/webhook')
  @HttpCode(200)
  @RateLimit(600, 60_000)
  @ApiOperation({ summary: "Stripe's webhook (Stripe-Signature header, raw JSON body): checkout sessions, refunds, disputes" })
  async webhook(@Req() request: RawBodyRequest<FastifyRequest>, @Headers('stripe-signature') signature: string | undefined) {
    if (!request.rawBody) throw new InvalidWebhookError('the body must be the JSON Stripe sent');
    const outcome = await this.events.handleWebhook(request.rawBody, signature);
    return { received: true, outcome };
  }
}
