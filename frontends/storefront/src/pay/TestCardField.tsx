// The built-in card form of test mode (no Stripe keys: the payments service acts as the provider).
// It behaves like Stripe's card field: the number grouped in fours, MM / YY, CVC, "complete" only for
// a 16-digit Luhn-valid number, a valid expiry not in the past and a 3-4 digit CVC, problems shown
// under the field. Clearly marked: no real charge is ever made here.
import { FlaskConical } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { paymentMessages, testModeCards } from '@shop/contracts';
import { Input, cn } from '@shop/ui';
import { confirmTestModePayment } from './api.js';
import type { CardFieldProps, ConfirmCard } from './card.js';
import { digitsOnly, formatCardNumber, formatExpiry, parseExpiry, testCardState, type TestCardInput } from './model.js';

const grouped = (n: string) => formatCardNumber(n);

export function TestCardField({ disabled, onChange, onReady, error, errorId }: CardFieldProps) {
  const id = useId();
  const [card, setCard] = useState<TestCardInput>({ number: '', expiry: '', cvc: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof TestCardInput, boolean>>>({});
  const state = testCardState(card, touched);
  const cardRef = useRef(card);
  cardRef.current = card;

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
  const invalid = (field: keyof TestCardInput) => Boolean(state.errors[field]) || (field === 'number' && Boolean(error && !fieldError));

  return (
    <div className="flex flex-col gap-3" data-testid="test-card-field">
      <div role="note" className="flex gap-3 rounded-md border border-caution-400/60 bg-caution-400/10 px-3 py-2.5 text-sm text-caution-400">
        <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-semibold">{paymentMessages.testModeNotice}</p>
          <p className="mt-0.5 text-khaki-100">
            Use {grouped(testModeCards.succeeds)} for a successful payment or {grouped(testModeCards.declined)} for a declined card, with
            any future expiry date and any 3-digit CVC.
          </p>
        </div>
      </div>
      <fieldset className="flex flex-col gap-3" disabled={disabled}>
        <legend className="mb-1.5 text-sm font-semibold text-khaki-100">Card details</legend>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-number`} className="text-sm text-khaki-200">
            Card number
          </label>
          <Input
            id={`${id}-number`}
            name="cardnumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            value={card.number}
            aria-invalid={invalid('number') || undefined}
            aria-describedby={fieldError ? errorId : undefined}
            onChange={(e) => setCard((c) => ({ ...c, number: formatCardNumber(e.target.value) }))}
            onBlur={() => setTouched((t) => ({ ...t, number: true }))}
            className="font-mono tracking-wider"
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-expiry`} className="text-sm text-khaki-200">
              Expiry (MM / YY)
            </label>
            <Input
              id={`${id}-expiry`}
              name="exp-date"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM / YY"
              value={card.expiry}
              aria-invalid={invalid('expiry') || undefined}
              aria-describedby={fieldError ? errorId : undefined}
              onChange={(e) => {
                const value = e.target.value;
                setCard((c) => ({ ...c, expiry: formatExpiry(value, c.expiry) }));
              }}
              onBlur={() => setTouched((t) => ({ ...t, expiry: true }))}
              className="font-mono"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-cvc`} className="text-sm text-khaki-200">
              CVC
            </label>
            <Input
              id={`${id}-cvc`}
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              value={card.cvc}
              aria-invalid={invalid('cvc') || undefined}
              aria-describedby={fieldError ? errorId : undefined}
              onChange={(e) => setCard((c) => ({ ...c, cvc: digitsOnly(e.target.value, 4) }))}
              onBlur={() => setTouched((t) => ({ ...t, cvc: true }))}
              className="font-mono"
            />
          </div>
        </div>
      </fieldset>
      <p id={errorId} role="alert" className={cn('min-h-5 text-sm text-alert-400', !fieldError && 'sr-only')} data-testid="card-error">
        {fieldError ?? ''}
      </p>
    </div>
  );
}
