// The built-in card form of test mode (no Stripe keys: the payments service acts as the provider).
// It behaves like Stripe's card field: the number grouped in fours, MM / YY, CVC, "complete" only for
// a 16-digit Luhn-valid number, a valid expiry not in the past and a 3-4 digit CVC, problems shown
// under the field. Clearly marked: no real charge is ever made here.
import { FlaskConical } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ComponentProps } from 'react';
import { paymentMessages, testModeCards } from '@shop/contracts';
import { Input, cn } from '@shop/ui';
import { confirmTestModePayment } from './api.js';
import type { CardFieldProps, ConfirmCard } from './card.js';
import { digitsOnly, formatCardNumber, formatExpiry, parseExpiry, testCardState, type TestCardInput } from './model.js';

const grouped = (n: string) => formatCardNumber(n);

/** One labelled numeric input of the card form. */
function CardInput({ label, id, ...input }: { label: string; id: string } & ComponentProps<typeof Input>) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm text-khaki-200">
        {label}
      </label>
      <Input id={id} inputMode="numeric" {...input} />
    </div>
  );
}

export function TestCardField({ disabled, onChange, onReady, error, errorId }: CardFieldProps) {
  const id = useId();
  const [card, setCard] = useState<TestCardInput>({ number: '', expiry: '', cvc: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof TestCardInput, boolean>>>({});
  const state = testCardState(card, touched);
  // What the page's confirm call reads: the card as last drawn.
  const cardRef = useRef(card);
  useEffect(() => {
    cardRef.current = card;
  }, [card]);

  // Every edit is reported (like Stripe's change event), so the page drops a card error it showed.
  useEffect(() => {
    onChange({ complete: state.complete });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [card]);

  useEffect(() => {
    const confirm: ConfirmCard = async (intent, billing) => {
      const current = cardRef.current;
      const expiry = parseExpiry(current.expiry);
      return confirmTestModePayment({
        paymentIntentId: intent.id,
        clientSecret: intent.clientSecret,
        card: {
          number: digitsOnly(current.number, 19),
          expMonth: expiry?.month ?? 0,
          expYear: expiry?.year ?? 0,
          cvc: digitsOnly(current.cvc, 4),
        },
        billingDetails: { name: billing.name },
      });
    };
    onReady(confirm);
    return () => onReady(null);
  }, [onReady]);

  const fieldError = state.errors.number ?? state.errors.expiry ?? state.errors.cvc ?? error;
  const invalid = (field: keyof TestCardInput) =>
    Boolean(state.errors[field]) || (field === 'number' && Boolean(error && !fieldError));
  // What the three inputs share: their id, value, validity, the one error line below, and "touched" on blur.
  const field = (name: keyof TestCardInput) => ({
    id: `${id}-${name}`,
    value: card[name],
    'aria-invalid': invalid(name) || undefined,
    'aria-describedby': fieldError ? errorId : undefined,
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
  });

  return (
    <div className="flex flex-col gap-3" data-testid="test-card-field">
      <div
        role="note"
        className="flex gap-3 rounded-md border border-caution-400/60 bg-caution-400/10 px-3 py-2.5 text-sm text-caution-400"
      >
        <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-semibold">{paymentMessages.testModeNotice}</p>
          <p className="mt-0.5 text-khaki-100">
            Use {grouped(testModeCards.succeeds)} for a successful payment or {grouped(testModeCards.declined)} for a
            declined card, with any future expiry date and any 3-digit CVC.
          </p>
        </div>
      </div>
      <fieldset className="flex flex-col gap-3" disabled={disabled}>
        <legend className="mb-1.5 text-sm font-semibold text-khaki-100">Card details</legend>
        <CardInput
          label="Card number"
          {...field('number')}
          name="cardnumber"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          onChange={(e) => setCard((c) => ({ ...c, number: formatCardNumber(e.target.value) }))}
          className="font-mono tracking-wider"
        />
        <div className="grid grid-cols-2 gap-3">
          <CardInput
            label="Expiry (MM / YY)"
            {...field('expiry')}
            name="exp-date"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            onChange={(e) => {
              const value = e.target.value;
              setCard((c) => ({ ...c, expiry: formatExpiry(value, c.expiry) }));
            }}
            className="font-mono"
          />
          <CardInput
            label="CVC"
            {...field('cvc')}
            name="cvc"
            autoComplete="cc-csc"
            placeholder="123"
            onChange={(e) => setCard((c) => ({ ...c, cvc: digitsOnly(e.target.value, 4) }))}
            className="font-mono"
          />
        </div>
      </fieldset>
      <p
        id={errorId}
        role="alert"
        className={cn('min-h-5 text-sm text-alert-400', !fieldError && 'sr-only')}
        data-testid="card-error"
      >
        {fieldError ?? ''}
      </p>
    </div>
  );
}
