// One small interface over the two payment providers: Stripe (when its keys are configured) and the
// service's own test mode (the embedded default). Routes and replies talk only to this.
import type { PaymentMode } from '@shop/contracts';
import type { PaymentIntentDoc } from '../models/payments.js';

export interface NewIntent {
  /** Cents, the server's figure. */
  amount: number;
  orderId: string;
  orderNumber: string;
  receiptEmail?: string | undefined;
  description: string;
  /** `order:<id>:amount:<cents>`: the provider returns the same intent for the same key. */
  idempotencyKey: string;
}

/** A payment intent as the provider has it. */
export interface ProviderIntent {
  id: string;
  clientSecret: string;
  /** Cents. For a succeeded intent, what was received. */
  amount: number;
  currency: string;
  status: string;
  /** From the intent's metadata (null when the intent has none). */
  orderId: string | null;
  orderNumber: string | null;
}

export interface PaymentProvider {
  readonly mode: PaymentMode;
  /** Creates the intent at the provider. */
  create(input: NewIntent): Promise<ProviderIntent>;
  /** An intent this service recorded earlier, as the provider has it now (a repeated click on Pay). */
  resume(record: PaymentIntentDoc): Promise<ProviderIntent>;
  /** The provider's own view of an intent, for verification; null when the provider does not know it. */
  retrieve(id: string): Promise<ProviderIntent | null>;
  /**
   * Cancels an intent that must never be charged (made for an order total that changed). Answers the
   * intent as the provider has it afterwards: `canceled`, or what it already was when too late to cancel
   * (succeeded, or canceled before); null when the provider does not know it.
   */
  cancel(record: PaymentIntentDoc): Promise<ProviderIntent | null>;
}
