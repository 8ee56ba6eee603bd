// What the fault suite's customers and admin do, through the gateway only, as the storefront and the back
// office do it: quote requests with an Idempotency-Key (sent again with the same key after a dropped
// connection or a 502/503/504, like the storefront), tracking reads, support messages, admin status changes
// and test-mode payments. Every call is recorded with its final status and how long it took.
import { randomUUID } from 'node:crypto';
import {
  idempotencyKeyHeader,
  productionRetryDelayMs,
  testModeCards,
  type CreateIntentResponse,
  type CreateOrderResponse,
  type ErrorEnvelope,
  type SupportMessageCreated,
} from '@shop/contracts';
import { DEV_ADMIN } from '@shop/local';
import { coinOrder } from '@shop/test-support';

export type Operation = 'quote' | 'track' | 'support' | 'status' | 'payment';

/** One call of the load, as the customer saw it. */
export interface Outcome {
  operation: Operation;
  /** Which fault window it started in. */
  fault: string;
  startedAt: number;
  ms: number;
  /** The final HTTP status; 0 when no answer came (connection refused or reset, client timeout). */
  status: number;
  /** Submissions made (quote requests and payment steps are sent again on 502/503/504 or no answer). */
  attempts: number;
  /** The status of every attempt, retries included (0 = no answer). */
  attemptStatuses: number[];
  /** Longest single attempt: the gateway must answer within its upstream timeout, never hang. */
  longestAttemptMs: number;
  /** What the checks look for afterwards. */
  email: string;
  orderId?: string;
  orderNumber?: string;
  reference?: string;
  statusSet?: string;
  note?: string;
  error?: string;
}

/** Attempts of one write the client may safely repeat (same Idempotency-Key, or idempotent by design). */
const ATTEMPTS = 4;
/** A request still unanswered after this long is a hang (the gateway's own upstream timeout is 15 s). */
export const CLIENT_TIMEOUT_MS = 20_000;

/**
 * One answer. Its body is what the caller says the route answers, or the error envelope of a failed call, so
 * every field may be missing; null when no JSON answer came (a body that is not JSON is kept as `raw`).
 */
interface Answer<Body = unknown> {
  status: number;
  body: Partial<Body & ErrorEnvelope> | null;
  ms: number;
  error?: string;
}

function retryable(answer: { status: number }): boolean {
  return answer.status === 0 || answer.status === 502 || answer.status === 503 || answer.status === 504;
}

export class ShopClient {
  constructor(readonly baseUrl: string) {}

  async call<Body = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<Body>> {
    const t0 = Date.now();
    try {
      const response = await fetch(this.baseUrl + path, {
        method,
        // Every call comes from the shop's own pages, as the browser's would (Origin on each request).
        headers: {
          accept: 'application/json',
          origin: this.baseUrl,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = { raw: text.slice(0, 200) };
      }
      return { status: response.status, body: parsed as Answer<Body>['body'], ms: Date.now() - t0 };
    } catch (error) {
      return {
        status: 0,
        body: null,
        ms: Date.now() - t0,
        error: (error as Error).cause ? String((error as Error).cause) : String(error),
      };
    }
  }

  /** Sends again after no answer or a 502/503/504, 1 s, 2 s, 4 s apart (the storefront's back-off). */
  private async withRetries<Body>(tries: Tries, send: () => Promise<Answer<Body>>): Promise<Answer<Body>> {
    for (let attempt = 1; ; attempt++) {
      const answer = tries.record(await send());
      if (!retryable(answer) || attempt >= ATTEMPTS) return answer;
      await new Promise((resolve) => setTimeout(resolve, productionRetryDelayMs(attempt)));
    }
  }

  private cookie = '';

  /** Signs in as the development admin; the session cookie is used for every admin call after. */
  async signIn(): Promise<Answer> {
    const t0 = Date.now();
    try {
      const response = await fetch(`${this.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: this.baseUrl },
        body: JSON.stringify(DEV_ADMIN),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const body: unknown = await response.json().catch(() => null);
      const cookie = /shop_admin_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
      if (response.status === 200 && cookie) this.cookie = cookie;
      return { status: response.status, body: body as Answer['body'], ms: Date.now() - t0 };
    } catch (error) {
      return { status: 0, body: null, ms: Date.now() - t0, error: String(error) };
    }
  }

  /** An admin call; signs in first when there is no session, and again once when it ended (401). */
  async adminCall(method: string, path: string, body?: unknown): Promise<Answer> {
    if (!this.cookie) {
      const login = await this.signIn();
      if (!this.cookie) return login;
    }
    const answer = await this.call(method, path, body, { cookie: this.cookie, origin: this.baseUrl });
    if (answer.status !== 401) return answer;
    this.cookie = '';
    const login = await this.signIn();
    if (!this.cookie) return login;
    return this.call(method, path, body, { cookie: this.cookie, origin: this.baseUrl });
  }

  /** A quote request from a new customer (a fresh email, so every check can find exactly its own traces). */
  async quote(fault: string): Promise<Outcome> {
    const email = `fault-${randomUUID().slice(0, 12)}@example.com`;
    const key = randomUUID();
    const body = coinOrder({ email, customerName: 'Fault Suite Customer' });
    const tries = new Tries();
    const answer = await this.withRetries(tries, () =>
      this.call<CreateOrderResponse>('POST', '/api/orders', body, { [idempotencyKeyHeader]: key }),
    );
    return tries.outcome('quote', fault, answer, answer.status === 200 || answer.status === 201, {
      email,
      orderId: answer.body?.order?.id,
      orderNumber: answer.body?.order?.orderNumber,
    });
  }

  /** A tracking read of an order placed earlier (no retries: a read the customer repeats by hand). */
  async track(fault: string, order: { orderNumber: string; email: string }): Promise<Outcome> {
    const tries = new Tries();
    const answer = tries.record(
      await this.call('POST', '/api/orders/track', { orderNumber: order.orderNumber, email: order.email }),
    );
    return tries.outcome('track', fault, answer, answer.status === 200, {
      email: order.email,
      orderNumber: order.orderNumber,
    });
  }

  /** A support message (no Idempotency-Key exists for it, so it is sent once: a retry could duplicate it). */
  async support(fault: string): Promise<Outcome> {
    const email = `fault-support-${randomUUID().slice(0, 12)}@example.com`;
    const tries = new Tries();
    const answer = tries.record(
      await this.call<SupportMessageCreated>('POST', '/api/support', {
        name: 'Fault Suite Visitor',
        email,
        subject: 'Question about coin sizes',
        message: 'Do you make 3 inch coins with a rope edge?',
        priority: 'normal',
      }),
    );
    return tries.outcome('support', fault, answer, answer.status === 201, { email, reference: answer.body?.reference });
  }

  /** An admin moves an order to Design Review, with a note unique to this change. */
  async changeStatus(fault: string, order: PlacedOrder): Promise<Outcome> {
    const note = `fault suite ${randomUUID().slice(0, 8)}`;
    const tries = new Tries();
    const answer = await this.withRetries(tries, () =>
      this.adminCall('PUT', `/api/orders/${encodeURIComponent(order.orderId)}/status`, {
        status: 'design_review',
        note,
      }),
    );
    return tries.outcome('status', fault, answer, answer.status === 200, {
      ...orderFields(order),
      statusSet: 'design_review',
      note,
    });
  }

  /**
   * A test-mode payment of an order: the admin sends its quote (when not sent yet), then the customer's
   * payment page creates the intent and confirms it with the 4242 card. Each step may be repeated: the
   * intent is one per order and amount, and confirming a succeeded intent answers 200 and charges nothing.
   */
  async pay(fault: string, order: PlacedOrder): Promise<Outcome> {
    const tries = new Tries();
    const failed = (step: string, answer: Answer) => {
      const outcome = tries.outcome('payment', fault, answer, false, orderFields(order));
      return { ...outcome, error: `${step}: ${outcome.error ?? ''}` };
    };
    const quote = await this.withRetries(tries, () =>
      this.adminCall('POST', `/api/orders/${encodeURIComponent(order.orderId)}/generate-quote`, {
        quoteAmount: 1250,
        quoteNotes: 'Fault suite quote',
        sendEmail: true,
      }),
    );
    // A repeated quote for an order whose quote was already sent is refused (409): that is fine here.
    if (quote.status !== 200 && quote.status !== 409) return failed('admin quote', quote);
    const intent = await this.withRetries(tries, () =>
      this.call<CreateIntentResponse>('POST', '/api/payments/create-intent', {
        currency: 'usd',
        metadata: { orderId: order.orderId, orderNumber: order.orderNumber },
      }),
    );
    const paymentIntent = intent.body?.paymentIntent;
    if (intent.status !== 200 || !paymentIntent) return failed('create-intent', intent);
    const confirm = await this.withRetries(tries, () =>
      this.call('POST', '/api/payments/test-mode/confirm', {
        paymentIntentId: paymentIntent.id,
        clientSecret: paymentIntent.client_secret,
        card: { number: testModeCards.succeeds, expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123' },
        billingDetails: { name: 'Fault Suite Customer', email: order.email },
      }),
    );
    return confirm.status === 200
      ? tries.outcome('payment', fault, confirm, true, orderFields(order))
      : failed('test-mode confirm', confirm);
  }
}

/** An order a customer placed, as the load hands it to a status change or a payment. */
export interface PlacedOrder {
  orderId: string;
  orderNumber: string;
  email: string;
}

const orderFields = ({ orderId, orderNumber, email }: PlacedOrder) => ({ orderId, orderNumber, email });

/** The attempts of one call of the load (several when it is sent again), and the Outcome they make. */
class Tries {
  private readonly startedAt = Date.now();
  private readonly statuses: number[] = [];
  private longest = 0;

  record<A extends Answer>(answer: A): A {
    this.statuses.push(answer.status);
    this.longest = Math.max(this.longest, answer.ms);
    return answer;
  }

  outcome(
    operation: Operation,
    fault: string,
    answer: Answer,
    ok: boolean,
    fields: { email: string } & Partial<Outcome>,
  ): Outcome {
    return {
      operation,
      fault,
      startedAt: this.startedAt,
      ms: Date.now() - this.startedAt,
      status: answer.status,
      attempts: this.statuses.length,
      attemptStatuses: [...this.statuses],
      longestAttemptMs: this.longest,
      error: ok ? undefined : (answer.error ?? answer.body?.error),
      ...fields,
    };
  }
}
