import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Stripe from 'stripe';

/** A request as the stand-in received it: form parameters and query parsed the way Stripe reads them. */
export interface StandInRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export type StandInPaymentMethod = { brand: string; last4: string } | { type: string };

type Json = Record<string, unknown>;

interface StripeErrorBody {
  type: 'api_error' | 'invalid_request_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

/**
 * Reads Stripe's form encoding (`line_items[0][price_data][unit_amount]=900`) into nested objects and
 * arrays; values stay strings, as Stripe receives them.
 */
function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, i) => {
      const slot = node as Record<string, unknown>;
      if (i === path.length - 1) {
        slot[segment] = value;
        return;
      }
      slot[segment] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = slot[segment] as Record<string, unknown>;
    });
  }
  return root;
}

const asNumber = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * The few Stripe API endpoints the Stripe adapter calls, answered on 127.0.0.1 like Stripe would
 * (form-encoded requests, JSON objects in Stripe's shapes, Stripe's error shape), so the adapter runs
 * with the real SDK and nothing leaves the machine. Set `state.failing` to answer every request 500.
 */
export async function startStripeStandIn({ secretKey }: { secretKey: string }) {
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, Json>();
  const paymentIntents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  /** Idempotency-Key -> the request body and the answer it got, replayed for the same key like Stripe does. */
  const replays = new Map<string, { body: string; status: number; answer: Json }>();
  const state = { failing: false };

  const error = (status: number, body: StripeErrorBody) => ({ status, answer: { error: body } as Json });
  const missing = (kind: string, id: string) =>
    error(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` });

  function createSession(params: Record<string, unknown>) {
    const items = params.line_items as { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } }[] | undefined;
    if (params.mode !== 'payment') return error(400, { type: 'invalid_request_error', param: 'mode', message: 'This stand-in only knows mode=payment.' });
    if (!items?.length) return error(400, { type: 'invalid_request_error', param: 'line_items', message: 'Missing required param: line_items.' });
    let amount = 0;
    for (const [i, item] of items.entries()) {
      const unitAmount = asNumber(item.price_data?.unit_amount);
      const quantity = asNumber(item.quantity);
      if (unitAmount === undefined || !quantity || !item.price_data?.product_data?.name || !item.price_data.currency) {
        return error(400, { type: 'invalid_request_error', param: `line_items[${i}][price_data]`, message: 'Invalid line item.' });
      }
      amount += unitAmount * quantity;
    }
    const id = newId('cs');
    const session: Json = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created: now(),
      currency: items[0]!.price_data!.currency,
      customer_email: params.customer_email ?? null,
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
      metadata: params.metadata ?? {},
      mode: 'payment',
      // Stripe keeps the request's invoice_creation; an invoice is made once the session is paid.
      invoice_creation: { enabled: (params.invoice_creation as { enabled?: string } | undefined)?.enabled === 'true', invoice_data: {} },
      invoice: null,
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url ?? null,
      url: `https://checkout.stripe.test/c/pay/${id}`,
    };
    sessions.set(id, session);
    return { status: 200, answer: session };
  }

  function refund(params: Record<string, unknown>) {
    const intentId = params.payment_intent as string | undefined;
    const intent = intentId ? paymentIntents.get(intentId) : undefined;
    if (!intentId || !intent) return missing('payment_intent', String(intentId));
    const charge = charges.get(intent.latest_charge as string)!;
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left === 0) return error(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${String(charge.id)} has already been refunded.` });
    const amount = params.amount === undefined ? left : asNumber(params.amount);
    if (!amount) return error(400, { type: 'invalid_request_error', param: 'amount', message: 'Invalid positive integer' });
    if (amount > left) {
      return error(400, {
        type: 'invalid_request_error',
        param: 'amount',
        message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      });
    }
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const answer: Json = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: {},
      payment_intent: intentId,
      status: 'succeeded',
    };
    refunds.set(answer.id as string, answer);
    return { status: 200, answer };
  }

  function route(method: string, path: string, query: Record<string, unknown>, params: Record<string, unknown>): { status: number; answer: Json } {
    const [, resource, id, extra] = /^\/v1\/(checkout\/sessions|payment_intents|charges|refunds|invoices)(?:\/([^/]+))?(\/.*)?$/.exec(path) ?? [];
    if (resource && !extra) {
      if (method === 'POST' && resource === 'checkout/sessions' && !id) return createSession(params);
      if (method === 'POST' && resource === 'refunds' && !id) return refund(params);
      if (method === 'GET' && resource === 'checkout/sessions' && id) return sessions.has(id) ? { status: 200, answer: sessions.get(id)! } : missing('checkout.session', id);
      if (method === 'GET' && resource === 'invoices' && id) return invoices.has(id) ? { status: 200, answer: invoices.get(id)! } : missing('invoice', id);
      if (method === 'GET' && resource === 'charges' && id) return charges.has(id) ? { status: 200, answer: charges.get(id)! } : missing('charge', id);
      if (method === 'GET' && resource === 'payment_intents' && id) {
        const intent = paymentIntents.get(id);
        if (!intent) return missing('payment_intent', id);
        const expand = (query.expand as string[] | undefined) ?? [];
        return { status: 200, answer: expand.includes('latest_charge') ? { ...intent, latest_charge: charges.get(intent.latest_charge as string) } : intent };
      }
    }
    return error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', 'http://stand-in');
      const key = req.headers['idempotency-key'] as string | undefined;
      const request: StandInRequest = {
        method: req.method ?? 'GET',
        path: target.pathname,
        query: parseForm(target.search.slice(1)),
        params: parseForm(body),
        idempotencyKey: key,
      };
      requests.push(request);
      const reply = ({ status, answer }: { status: number; answer: Json }) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': newId('req') });
        res.end(JSON.stringify(answer));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        const given = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        return reply(error(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${given.slice(0, 8)}****${given.slice(-4)}` }));
      }
      if (state.failing) return reply(error(500, { type: 'api_error', message: 'An unknown error occurred' }));
      const previous = key && request.method === 'POST' ? replays.get(key) : undefined;
      if (previous && previous.body !== body) {
        return reply(error(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with.` }));
      }
      if (previous) return reply(previous);
      const result = route(request.method, request.path, request.query, request.params);
      // Stripe keeps the answer of a POST under its key (the stand-in keeps successes only).
      if (key && request.method === 'POST' && result.status === 200) replays.set(key, { body, ...result });
      reply(result);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`The stand-in has no checkout session ${id}`);
    return session;
  };

  return {
    url,
    /** Every request received, in order. */
    requests,
    state,
    /** A copy of a checkout session as GET would answer it. */
    session: (id: string) => structuredClone(sessionOf(id)),
    charge: (id: string) => structuredClone(charges.get(id)),
    /**
     * The buyer pays: the session becomes complete and paid, with a payment intent and its charge
     * (a card with brand and last four digits, or another method type such as `link`).
     */
    markPaid(sessionId: string, method: StandInPaymentMethod = { brand: 'visa', last4: '4242' }) {
      const session = sessionOf(sessionId);
      const paymentIntent = newId('pi');
      const chargeId = newId('ch');
      const amount = session.amount_total as number;
      const details = 'brand' in method ? { type: 'card', card: { brand: method.brand, last4: method.last4, exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US' } } : { type: method.type, [method.type]: {} };
      charges.set(chargeId, {
        id: chargeId,
        object: 'charge',
        amount,
        amount_captured: amount,
        amount_refunded: 0,
        captured: true,
        created: now(),
        currency: session.currency,
        disputed: false,
        livemode: false,
        metadata: {},
        paid: true,
        payment_intent: paymentIntent,
        payment_method_details: details,
        refunded: false,
        status: 'succeeded',
      });
      paymentIntents.set(paymentIntent, {
        id: paymentIntent,
        object: 'payment_intent',
        amount,
        amount_received: amount,
        created: now(),
        currency: session.currency,
        latest_charge: chargeId,
        livemode: false,
        metadata: session.metadata,
        payment_method_types: [details.type],
        status: 'succeeded',
      });
      let invoice: string | null = null;
      if ((session.invoice_creation as { enabled: boolean }).enabled) {
        invoice = newId('in');
        invoices.set(invoice, { id: invoice, object: 'invoice', status: 'paid', amount_paid: amount, currency: session.currency, hosted_invoice_url: `https://invoice.stripe.test/i/${invoice}`, payment_intent: paymentIntent });
      }
      Object.assign(session, { payment_status: 'paid', status: 'complete', payment_intent: paymentIntent, invoice, url: null });
      return { session: structuredClone(session), paymentIntent, charge: chargeId };
    },
    /** The session expires unpaid. */
    expire(sessionId: string) {
      return structuredClone(Object.assign(sessionOf(sessionId), { status: 'expired', url: null }));
    },
    /**
     * A refund fails at the bank (days after it was made): its status becomes failed and the charge's
     * amount_refunded drops by it, as Stripe does; the refund as refund.failed carries it.
     */
    failRefund(refundId: string) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`The stand-in has no refund ${refundId}`);
      const charge = charges.get(refund.charge as string)!;
      charge.amount_refunded = (charge.amount_refunded as number) - (refund.amount as number);
      charge.refunded = false;
      return structuredClone(Object.assign(refund, { status: 'failed', failure_reason: 'expired_or_canceled_card' }));
    },
    /** The refunds made, oldest first. */
    refunds: () => [...refunds.values()].map((refund) => structuredClone(refund)),
    /**
     * A dispute of a charge, as Stripe sends it in charge.dispute.created (`withPaymentIntent: false`
     * leaves the field null); `status: 'won'` (or 'lost') as charge.dispute.closed carries it.
     */
    dispute(chargeId: string, { withPaymentIntent = true, status = 'needs_response', id = newId('dp') } = {}) {
      const charge = charges.get(chargeId);
      if (!charge) throw new Error(`The stand-in has no charge ${chargeId}`);
      return {
        id,
        object: 'dispute',
        amount: charge.amount,
        charge: chargeId,
        created: now(),
        currency: charge.currency,
        livemode: false,
        metadata: {},
        payment_intent: withPaymentIntent ? charge.payment_intent : null,
        reason: 'fraudulent',
        status,
      };
    },
    /**
     * A webhook delivery as Stripe sends it: the event JSON and its Stripe-Signature header, signed by
     * the SDK's own helper (`timestamp` in seconds, default now). `livemode`: a live event (default test).
     */
    webhook(type: string, object: object, { secret, timestamp, id = newId('evt'), livemode = false }: { secret: string; timestamp?: number; id?: string; livemode?: boolean }) {
      const body = JSON.stringify({
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: timestamp ?? now(),
        data: { object },
        livemode,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      return { id, body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) };
    },
    /** The Stripe-Signature header for any body, however odd (signed events that do not read as Stripe's). */
    sign(body: string, { secret, timestamp }: { secret: string; timestamp?: number }) {
      return Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
