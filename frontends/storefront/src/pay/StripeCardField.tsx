// The card field with Stripe keys configured: Stripe Elements' CardElement, so card data goes from the
// browser to Stripe and never through our servers. Loaded only in stripe mode (the page imports this
// module lazily), and Stripe.js itself only from Stripe's host (`/pure` has no load-on-import).
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useId, useMemo, useState } from 'react';
import { paymentMessages } from '@shop/contracts';
import { Skeleton, cn } from '@shop/ui';
import { PaymentError } from './api.js';
import type { CardFieldProps, ConfirmCard } from './card.js';

const loaded = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    // A failed script load may work on the next visit: do not keep the failure.
    promise.catch(() => loaded.delete(publishableKey));
    loaded.set(publishableKey, promise);
  }
  return promise;
}

// The shop's dark theme inside Stripe's iframe (khaki text on ink, alert red).
const cardStyle = {
  base: {
    color: '#ece6d2',
    fontSize: '16px',
    fontFamily: 'system-ui, sans-serif',
    '::placeholder': { color: '#a8a18a' },
    iconColor: '#d4a93c',
  },
  invalid: { color: '#f08c7c', iconColor: '#f08c7c' },
};

function StripeCard({ disabled, onChange, onReady, onSetupError, error, errorId }: CardFieldProps) {
  const stripe = useStripe();
  const elements = useElements();
  const labelId = useId();
  const [providerError, setProviderError] = useState<string | null>(null);
  // A new options object on every render would send Stripe an update each time.
  const options = useMemo(() => ({ style: cardStyle, disabled, hidePostalCode: true }), [disabled]);

  useEffect(() => {
    if (!stripe || !elements) return;
    const confirm: ConfirmCard = async (intent, billing) => {
      const card = elements.getElement(CardElement);
      if (!card) throw new PaymentError(paymentMessages.notReady);
      const result = await stripe.confirmCardPayment(intent.clientSecret, {
        payment_method: { card, billing_details: { name: billing.name } },
      });
      if (result.error) throw new PaymentError(result.error.message || paymentMessages.cardFailed, true);
      return { id: result.paymentIntent.id, status: result.paymentIntent.status };
    };
    onReady(confirm);
    return () => onReady(null);
  }, [stripe, elements, onReady]);

  const shown = providerError ?? error;
  return (
    <div className="flex flex-col gap-1.5" data-testid="stripe-card-field">
      <span id={labelId} className="text-sm font-semibold text-khaki-100">
        Card details
      </span>
      <div
        role="group"
        aria-labelledby={labelId}
        aria-describedby={shown ? errorId : undefined}
        className={cn('rounded-md border bg-ink-900 px-3 py-3', shown ? 'border-alert-400' : 'border-olive-500')}
      >
        <CardElement
          options={options}
          onChange={(event) => {
            setProviderError(event.error?.message ?? null);
            onChange({ complete: event.complete });
          }}
          onLoadError={() => onSetupError(paymentMessages.formInitFailed)}
        />
      </div>
      <p
        id={errorId}
        role="alert"
        className={cn('min-h-5 text-sm text-alert-400', !shown && 'sr-only')}
        data-testid="card-error"
      >
        {shown ?? ''}
      </p>
    </div>
  );
}

export default function StripeCardField(props: CardFieldProps & { publishableKey: string }) {
  const { publishableKey, onSetupError } = props;
  const [stripe, setStripe] = useState<Stripe | null>(null);

  useEffect(() => {
    let live = true;
    stripeFor(publishableKey)
      .then((instance) => {
        if (!instance) throw new Error('Stripe.js did not load');
        if (live) setStripe(instance);
      })
      .catch(() => {
        if (live) onSetupError(paymentMessages.scriptLoadFailed);
      });
    return () => {
      live = false;
    };
  }, [publishableKey, onSetupError]);

  if (!stripe) return <Skeleton className="h-12" />;
  return (
    <Elements stripe={stripe}>
      <StripeCard {...props} />
    </Elements>
  );
}
