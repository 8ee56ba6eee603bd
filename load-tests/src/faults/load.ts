// The steady load of the fault suite: a few customers and an admin working the shop at once, one call
// after another with a short pause, each call recorded against the fault window it started in.
import type { Operation, Outcome, PlacedOrder, ShopClient } from './shop-client.js';

/** Quote requests are the bulk; every other kind comes once per round. */
const ROUND: Operation[] = ['quote', 'track', 'support', 'quote', 'status', 'quote', 'payment'];

export class SteadyLoad {
  readonly outcomes: Outcome[] = [];
  /** Orders placed (answered 2xx); each is free for one later status change or payment. */
  private readonly placed: Array<PlacedOrder & { used: boolean }> = [];
  private fault = 'warm-up';
  private running = false;
  private workers: Promise<void>[] = [];
  /** Calls under way, by the fault they started in. */
  private readonly underWay = new Map<string, number>();

  constructor(
    private readonly client: ShopClient,
    private readonly options: { workers?: number; pauseMs?: number } = {},
  ) {}

  /** Calls started from now on count for this fault. */
  setFault(name: string): void {
    this.fault = name;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const count = this.options.workers ?? 3;
    this.workers = Array.from({ length: count }, (_, index) => this.work(index));
  }

  /** Stops starting calls and waits for those under way (each ends within its retries and timeouts). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
    this.workers = [];
  }

  outcomesOf(fault: string): Outcome[] {
    return this.outcomes.filter((outcome) => outcome.fault === fault);
  }

  /** The calls of `fault`, once none of them is still under way (a call ends within its retries and timeouts). */
  async settledOutcomesOf(fault: string, timeoutMs = 120_000): Promise<Outcome[]> {
    const deadline = Date.now() + timeoutMs;
    while ((this.underWay.get(fault) ?? 0) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return this.outcomesOf(fault);
  }

  private async work(index: number): Promise<void> {
    let turn = index;
    while (this.running) {
      const operation = ROUND[turn++ % ROUND.length];
      const fault = this.fault;
      this.underWay.set(fault, (this.underWay.get(fault) ?? 0) + 1);
      const outcome = await this.once(operation, fault).finally(() =>
        this.underWay.set(fault, this.underWay.get(fault)! - 1),
      );
      if (outcome) {
        this.outcomes.push(outcome);
        if (
          outcome.operation === 'quote' &&
          outcome.status >= 200 &&
          outcome.status < 300 &&
          outcome.orderId &&
          outcome.orderNumber
        ) {
          this.placed.push({
            orderId: outcome.orderId,
            orderNumber: outcome.orderNumber,
            email: outcome.email,
            used: false,
          });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 150));
    }
  }

  private async once(operation: Operation, fault: string): Promise<Outcome | undefined> {
    switch (operation) {
      case 'quote':
        return this.client.quote(fault);
      case 'support':
        return this.client.support(fault);
      case 'track': {
        const order = this.placed[Math.floor(Math.random() * this.placed.length)];
        return order ? this.client.track(fault, order) : this.client.quote(fault);
      }
      case 'status':
      case 'payment': {
        // Each order gets at most one of the two, so its final status is known.
        const order = this.placed.find((candidate) => !candidate.used);
        if (!order) return this.client.quote(fault);
        order.used = true;
        return operation === 'status' ? this.client.changeStatus(fault, order) : this.client.pay(fault, order);
      }
    }
  }
}
