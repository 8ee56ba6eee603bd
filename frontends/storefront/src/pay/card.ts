// What the payment page needs from a card field, whichever provider draws it (Stripe Elements, or the
// built-in test-mode form): whether the card is complete, and a way to confirm a payment intent with it.
import type { StartedIntent } from './api.js';

export interface CardChange {
  complete: boolean;
}

export interface BillingDetails {
  name: string;
}

/** Confirms the intent with the card entered; throws a PaymentError (inline for card problems). */
export type ConfirmCard = (intent: StartedIntent, billing: BillingDetails) => Promise<{ id: string; status: string }>;

export interface CardFieldProps {
  /** Set while a payment is being processed: the field cannot be edited. */
  disabled: boolean;
  onChange: (change: CardChange) => void;
  /** The field hands the page its confirm function once it is ready (null while it is not). */
  onReady: (confirm: ConfirmCard | null) => void;
  /** Setup failures (script, card form): the §8 message. */
  onSetupError: (message: string) => void;
  /** A card problem to show under the field (from the provider, or the last confirmation). */
  error: string | null;
  /** Id of the element the field's error is written in, for aria-describedby. */
  errorId: string;
}
