// A local fake of the part of Stripe's HTTP API the payments service uses, so the real stripe SDK can be
// tested offline: POST /v1/payment_intents (form-encoded, metadata[...] included, Idempotency-Key replay
// as Stripe does it), GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel (refused with
// payment_intent_unexpected_state once succeeded or canceled, as Stripe does), Stripe's error shape.
// Tests drive it through `confirm` (Stripe.js paying on the page) and `setIntent` (what the card network
// would do) and read `requests`.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';

export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The parsed form body (nested like Stripe's: metadata[orderId] -> { metadata: { orderId } }). */
  body: Record<string, unknown>;
}

export interface FakeStripe {
  url: string;
  /** Every API call, in order. */
  requests: FakeRequest[];
  intents: Map<string, Stripe.PaymentIntent>;
  /** What happens at Stripe when a card is confirmed (or an amount changed behind our back). */
  setIntent(
    id: string,
    change: Partial<
      Pick<Stripe.PaymentIntent, 'status' | 'amount' | 'amount_received' | 'metadata' | 'last_payment_error'>
    >,
  ): Stripe.PaymentIntent;
  /**
   * What Stripe.js does when the customer pays on the page: the card goes through, unless Stripe no
   * longer lets the intent be confirmed (canceled or already succeeded), as Stripe refuses it.
   */
  confirm(id: string): { ok: true; intent: Stripe.PaymentIntent } | { ok: false; code: string; message: string };
  /** Adds an intent the service never created (e.g. made in the Stripe dashboard). */
  addIntent(fields: Partial<Stripe.PaymentIntent> & { amount: number }): Stripe.PaymentIntent;
  /** The next N API calls answer 500 (Stripe down). */
  failNext(count: number): void;
  /** A webhook event as Stripe sends it, for an intent as it is now. */
  event(type: string, intent: Stripe.PaymentIntent, id?: string): Stripe.Event;
  close(): Promise<void>;
}

const random = (n: number) => randomBytes(n).toString('hex').slice(0, n);

/** `a[b][c]=1&list[0]=x` -> `{ a: { b: { c: '1' } }, list: ['x'] }` (Stripe's form encoding). */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[index + 1]);
      const slot = (node as Record<string, unknown>)[part];
      if (last) (node as Record<string, unknown>)[part] = value;
      else {
        if (slot === undefined) (node as Record<string, unknown>)[part] = nextIsIndex ? [] : {};
        node = (node as Record<string, unknown>)[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

function stripeError(res: ServerResponse, status: number, error: Record<string, unknown>) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${random(14)}` });
  res.end(JSON.stringify({ error }));
}

/** Stripe cancels an intent only in these statuses (a succeeded or canceled one is refused). */
const cancelableStatuses = new Set([
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
]);

const unexpectedState = (action: 'cancel' | 'confirm', intent: Stripe.PaymentIntent) => ({
  type: 'invalid_request_error',
  code: 'payment_intent_unexpected_state',
  message:
    action === 'cancel'
      ? `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${[...cancelableStatuses].join(', ')}.`
      : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
  payment_intent: intent,
});

const missing = (res: ServerResponse, id: string) =>
  stripeError(res, 404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param: 'intent',
    message: `No such payment_intent: '${id}'`,
  });

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${random(14)}`, ...extra });
  res.end(JSON.stringify(body));
}

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  const requests: FakeRequest[] = [];
  const intents = new Map<string, Stripe.PaymentIntent>();
  /** Idempotency-Key -> the request body it came with and the answer given. */
  const replays = new Map<string, { rawBody: string; status: number; body: unknown }>();
  let failures = 0;

  function newIntent(fields: Partial<Stripe.PaymentIntent> & { amount: number }): Stripe.PaymentIntent {
    const id = fields.id ?? `pi_${random(24)}`;
    const intent = {
      id,
      object: 'payment_intent',
      amount_received: 0,
      currency: 'usd',
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${random(24)}`,
      metadata: {},
      description: null,
      receipt_email: null,
      last_payment_error: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      payment_method_types: ['card'],
      allowed_payment_method_types: ['card'],
      ...fields,
    } as unknown as Stripe.PaymentIntent;
    intents.set(id, intent);
    return intent;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const authorization = req.headers.authorization;
    const body = req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseStripeForm(rawBody);
    requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey, authorization, body });

    if (
      !authorization?.startsWith('Bearer ') ||
      (options.secretKey && authorization !== `Bearer ${options.secretKey}`)
    ) {
      return stripeError(res, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    }
    if (failures > 0) {
      failures--;
      return stripeError(res, 500, { type: 'api_error', message: 'Fake Stripe is down (test control).' });
    }

    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      if (idempotencyKey && replays.has(idempotencyKey)) {
        const seen = replays.get(idempotencyKey)!;
        // Stripe refuses a key reused with other parameters.
        if (seen.rawBody !== rawBody) {
          return stripeError(res, 400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          });
        }
        return send(res, seen.status, seen.body, { 'idempotent-replayed': 'true' });
      }
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount < 50) {
        return stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'amount_too_small',
          param: 'amount',
          message: 'Amount must be at least $0.50 usd',
        });
      }
      const intent = newIntent({
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'usd',
        metadata: (body.metadata as Record<string, string>) ?? {},
        description: (body.description as string) ?? null,
        receipt_email: (body.receipt_email as string) ?? null,
        ...(Array.isArray(body.allowed_payment_method_types)
          ? { allowed_payment_method_types: body.allowed_payment_method_types as never }
          : {}),
      });
      if (idempotencyKey) replays.set(idempotencyKey, { rawBody, status: 200, body: intent });
      return send(res, 200, intent);
    }

    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const id = decodeURIComponent(cancel[1]);
      const intent = intents.get(id);
      if (!intent) return missing(res, id);
      // The SDK retries with the same key; Stripe answers a replay with the first answer.
      if (idempotencyKey && replays.has(idempotencyKey))
        return send(res, replays.get(idempotencyKey)!.status, replays.get(idempotencyKey)!.body, {
          'idempotent-replayed': 'true',
        });
      if (!cancelableStatuses.has(intent.status)) return stripeError(res, 400, unexpectedState('cancel', intent));
      Object.assign(intent, {
        status: 'canceled',
        canceled_at: Math.floor(Date.now() / 1000),
        cancellation_reason: (body.cancellation_reason as string) ?? null,
      });
      if (idempotencyKey) replays.set(idempotencyKey, { rawBody, status: 200, body: structuredClone(intent) });
      return send(res, 200, intent);
    }

    const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && match) {
      const intent = intents.get(decodeURIComponent(match[1]));
      if (!intent) return missing(res, match[1]);
      return send(res, 200, intent);
    }
    return stripeError(res, 404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => stripeError(res, 500, { type: 'api_error', message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intents,
    setIntent(id, change) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`fake Stripe has no intent ${id}`);
      Object.assign(intent, change);
      if (change.status === 'succeeded' && change.amount_received === undefined) intent.amount_received = intent.amount;
      return intent;
    },
    confirm(id) {
      const intent = intents.get(id);
      if (!intent) return { ok: false, code: 'resource_missing', message: `No such payment_intent: '${id}'` };
      if (intent.status === 'canceled' || intent.status === 'succeeded') {
        const { code, message } = unexpectedState('confirm', intent);
        return { ok: false, code, message };
      }
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
      return { ok: true, intent };
    },
    addIntent: newIntent,
    failNext(count) {
      failures = count;
    },
    event(type, intent, id = `evt_${random(24)}`) {
      return {
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: structuredClone(intent) },
      } as unknown as Stripe.Event;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
