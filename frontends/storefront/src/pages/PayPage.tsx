// /order/pay/{orderId} (storefront §2 "Quote payment", §4 payment page, §5 payment rules, §7, §8):
// loading -> load error | payable -> processing -> success. The order comes from the public payment view
// (GET /api/orders/:id); the card field is Stripe Elements with Stripe keys, else the built-in test-mode
// form. Pay: create-intent, confirm the card with the provider, then the status update with the intent.
// The server charges the quote and marks the order paid only once the provider confirmed it.
// The help box and the Quote Expired box name the contact details admins maintain (src/api/contact.ts).
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, Clock, LifeBuoy, Lock, Mail, Phone, TriangleAlert } from 'lucide-react';
import { Suspense, lazy, useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from '@shop/ui/router';
import { formatMoney, paymentMessages, type OrderPaymentView } from '@shop/contracts';
import { Alert, Button, Card, Skeleton, Spinner } from '@shop/ui';
import { telHref, useShopContact, type PublicContactConfig } from '../api/contact.js';
import {
  PaymentError,
  confirmOrderPaid,
  createPaymentIntent,
  loadPaymentConfig,
  loadPaymentOrder,
} from '../pay/api.js';
import type { CardChange, ConfirmCard } from '../pay/card.js';
import { formatExpiryDate, payOffer, quantityLine, taxLabel, type PayOffer } from '../pay/model.js';
import { TestCardField } from '../pay/TestCardField.js';
import { StorefrontQueries } from '../query.js';
import { statusLabel } from '../track/model.js';
import '../styles.css';

// Stripe's field (and @stripe/*) is fetched only when the shop runs with Stripe keys.
const StripeCardField = lazy(() =>
  import('../pay/StripeCardField.js').catch(() => ({
    default: () => <Alert tone="error">{paymentMessages.scriptLoadFailed}</Alert>,
  })),
);

function Screen({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div
      className={wide ? 'mx-auto w-full max-w-5xl px-4 py-10 sm:py-12' : 'mx-auto w-full max-w-xl px-4 py-12 sm:py-16'}
      data-remote="storefront"
    >
      {children}
    </div>
  );
}

function Loading() {
  return (
    <Screen>
      <div className="flex flex-col items-center gap-4 text-center" data-testid="pay-loading">
        <Spinner size="lg" label={paymentMessages.loadingOrder} />
        <p className="text-khaki-200">{paymentMessages.loadingOrder}</p>
      </div>
    </Screen>
  );
}

/** A one-card outcome of the page (load error, success): its icon and title, then what to say and do. */
function OutcomeCard(props: {
  testId: string;
  icon: ReactNode;
  title: string;
  titleSize: 'text-2xl' | 'text-3xl';
  children: ReactNode;
}) {
  return (
    <Screen>
      <Card className="flex flex-col items-center gap-4 px-6 py-10 text-center" data-testid={props.testId}>
        {props.icon}
        <h1 className={`font-display ${props.titleSize} font-bold uppercase tracking-wide text-khaki-50`}>
          {props.title}
        </h1>
        {props.children}
      </Card>
    </Screen>
  );
}

function LoadError() {
  const navigate = useNavigate();
  return (
    <OutcomeCard
      testId="pay-load-error"
      icon={<TriangleAlert aria-hidden="true" className="size-12 text-alert-400" />}
      title={paymentMessages.loadErrorTitle}
      titleSize="text-2xl"
    >
      <p role="alert" className="max-w-prose text-khaki-200">
        {paymentMessages.loadOrderFailed}
      </p>
      <Button onClick={() => navigate('/')}>Return Home</Button>
    </OutcomeCard>
  );
}

function Success({ orderNumber }: { orderNumber: string }) {
  const navigate = useNavigate();
  return (
    <OutcomeCard
      testId="pay-success"
      icon={<CircleCheck aria-hidden="true" className="size-14 text-ok-400" />}
      title={paymentMessages.successTitle}
      titleSize="text-3xl"
    >
      <p className="max-w-prose text-khaki-100">
        Thank you. Your payment for order <span className="font-mono font-semibold text-khaki-50">#{orderNumber}</span>{' '}
        has been received.
      </p>
      <p className="max-w-prose text-khaki-200">
        An email confirmation will follow shortly, and our team begins work on your order right away.
      </p>
      <Button size="lg" onClick={() => navigate('/')}>
        Continue
      </Button>
    </OutcomeCard>
  );
}

function Row({ term, children, strong = false }: { term: string; children: ReactNode; strong?: boolean }) {
  return (
    <div
      className={
        strong
          ? 'flex justify-between gap-4 border-t border-olive-600 pt-3 text-lg font-bold text-khaki-50'
          : 'flex justify-between gap-4'
      }
    >
      <dt className={strong ? undefined : 'text-khaki-300'}>{term}</dt>
      <dd className={strong ? 'font-mono' : 'font-mono text-khaki-50'}>{children}</dd>
    </div>
  );
}

function OrderSummary({ order }: { order: OrderPaymentView }) {
  return (
    <Card className="p-5" data-testid="order-summary">
      <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Order Summary</h2>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm [&_dd]:[overflow-wrap:anywhere]">
        <dt className="text-khaki-300">Order number</dt>
        <dd className="font-mono font-semibold text-khaki-50">{order.orderNumber}</dd>
        <dt className="text-khaki-300">Item</dt>
        <dd className="text-khaki-50">{quantityLine(order)}</dd>
        <dt className="text-khaki-300">Customer</dt>
        <dd className="text-khaki-50">{order.customerName}</dd>
        {order.quoteNotes ? (
          <>
            <dt className="text-khaki-300">Quote notes</dt>
            <dd className="whitespace-pre-wrap text-khaki-50">{order.quoteNotes}</dd>
          </>
        ) : null}
        <dt className="text-khaki-300">Description</dt>
        <dd className="whitespace-pre-wrap text-khaki-100">{order.description}</dd>
      </dl>
    </Card>
  );
}

function PaymentDetails({ order }: { order: OrderPaymentView }) {
  if (order.quoteAmount === null || order.finalAmount === null) return null;
  return (
    <Card className="p-5" data-testid="payment-details">
      <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Payment Details</h2>
      <dl className="mt-3 flex flex-col gap-2 text-sm">
        <Row term="Subtotal">{formatMoney(order.quoteAmount)}</Row>
        {order.discountAmount > 0 ? <Row term="Discount">-{formatMoney(order.discountAmount)}</Row> : null}
        <Row term={taxLabel(order)}>{formatMoney(order.taxAmount)}</Row>
        <Row term="Total" strong>
          {formatMoney(order.finalAmount)}
        </Row>
      </dl>
    </Card>
  );
}

function HelpBox() {
  const contact = useShopContact();
  return (
    <Card className="p-5" data-testid="pay-help">
      <h2 className="flex items-center gap-2 font-display text-lg font-bold uppercase tracking-wide text-khaki-50">
        <LifeBuoy aria-hidden="true" className="size-5 text-brass-400" /> Need Help?
      </h2>
      <p className="mt-2 text-sm text-khaki-200">Questions about your quote or payment? Our team is here to help.</p>
      {contact === null ? (
        <p className="mt-3 text-sm text-khaki-200" data-testid="pay-help-reply">
          Reply to the email that brought you this quote and our team will answer.
        </p>
      ) : contact ? (
        <ul className="mt-3 flex flex-col gap-2 text-sm">
          <li className="flex flex-wrap items-center gap-x-2">
            <Mail aria-hidden="true" className="size-4 text-brass-400" />
            <span className="text-khaki-300">Quotes &amp; support:</span>
            <a
              className="text-brass-300 underline-offset-2 [overflow-wrap:anywhere] hover:underline"
              href={`mailto:${contact.supportEmail}`}
            >
              {contact.supportEmail}
            </a>
          </li>
          {contact.supportPhone ? (
            <li className="flex flex-wrap items-center gap-x-2">
              <Phone aria-hidden="true" className="size-4 text-brass-400" />
              <span className="text-khaki-300">Phone:</span>
              <a className="text-brass-300 underline-offset-2 hover:underline" href={telHref(contact.supportPhone)}>
                {contact.supportPhone}
              </a>
            </li>
          ) : null}
          {contact.supportHours ? (
            <li className="flex items-start gap-2 text-khaki-200" data-testid="pay-help-hours">
              <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brass-400" />
              <span>
                {contact.supportHours.weekday ? (
                  <span className="block">Weekdays: {contact.supportHours.weekday}</span>
                ) : null}
                {contact.supportHours.weekend ? (
                  <span className="block">Weekends: {contact.supportHours.weekend}</span>
                ) : null}
              </span>
            </li>
          ) : null}
        </ul>
      ) : (
        <Skeleton className="mt-3 h-5 w-3/4" />
      )}
      <p className="mt-4 flex gap-2 border-t border-olive-700 pt-3 text-xs text-khaki-300">
        <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        Your payment is processed securely by our payment provider. Your card details are never stored on our servers.
      </p>
    </Card>
  );
}

function CardPayment({ order, onPaid, onStale }: { order: OrderPaymentView; onPaid: () => void; onStale: () => void }) {
  const config = useQuery({ queryKey: ['payment-config'], queryFn: loadPaymentConfig, staleTime: Infinity, retry: 1 });
  const errorId = useId();
  const confirmRef = useRef<ConfirmCard | null>(null);
  const [ready, setReady] = useState(false);
  const [complete, setComplete] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const busy = useRef(false);

  const onReady = useCallback((confirm: ConfirmCard | null) => {
    confirmRef.current = confirm;
    setReady(confirm !== null);
  }, []);
  const onChange = useCallback((change: CardChange) => {
    setComplete(change.complete);
    setCardError(null);
  }, []);
  const onSetupError = useCallback((message: string) => setSetupError(message), []);

  async function pay() {
    // A second click before the button disables must not start a second payment.
    if (busy.current) return;
    const confirm = confirmRef.current;
    if (!confirm || setupError) {
      setPayError(paymentMessages.notReady);
      return;
    }
    if (!complete) {
      setCardError(paymentMessages.incompleteCard);
      return;
    }
    busy.current = true;
    setProcessing(true);
    setPayError(null);
    setCardError(null);
    try {
      const intent = await createPaymentIntent(order);
      const result = await confirm(intent, { name: order.customerName });
      if (result.status !== 'succeeded') throw new PaymentError(paymentMessages.notSucceeded);
      await confirmOrderPaid(order.id, result.id);
      onPaid();
    } catch (error) {
      if (error instanceof PaymentError && error.inline) setCardError(error.message);
      else {
        setPayError(error instanceof PaymentError ? error.message : paymentMessages.generic);
        // The server may know better (paid in another tab, quote expired meanwhile).
        onStale();
      }
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  }

  const shownSetupError = setupError ?? (config.isError ? config.error.message : null);
  const fieldProps = { disabled: processing, onChange, onReady, onSetupError, error: cardError, errorId };
  return (
    <Card className="p-5" data-testid="card-payment">
      <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Pay by Card</h2>
      <form
        noValidate
        aria-label="Card payment"
        className="mt-4 flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void pay();
        }}
      >
        {shownSetupError ? <Alert tone="error">{shownSetupError}</Alert> : null}
        {config.isPending ? <Skeleton className="h-40" /> : null}
        {config.data?.mode === 'test_mode' ? <TestCardField {...fieldProps} /> : null}
        {config.data?.mode === 'stripe' && config.data.publishableKey ? (
          <Suspense fallback={<Skeleton className="h-12" />}>
            <StripeCardField {...fieldProps} publishableKey={config.data.publishableKey} />
          </Suspense>
        ) : null}
        {payError ? (
          <Alert tone="error" data-testid="pay-error">
            {payError}
          </Alert>
        ) : null}
        <Button
          type="submit"
          size="lg"
          disabled={!complete || !ready || Boolean(shownSetupError)}
          loading={processing}
          loadingText={paymentMessages.processing}
        >
          <Lock aria-hidden="true" className="size-4" /> Pay {formatMoney(order.finalAmount ?? 0)}
        </Button>
      </form>
    </Card>
  );
}

function ExpiredContact({ contact }: { contact: PublicContactConfig | null | undefined }) {
  if (contact === null) return <>reply to your quote email</>;
  if (!contact) return <>contact us</>;
  return (
    <>
      contact us at{' '}
      <a className="text-brass-300 underline [overflow-wrap:anywhere]" href={`mailto:${contact.supportEmail}`}>
        {contact.supportEmail}
      </a>
      {contact.supportPhone ? (
        <>
          {' '}
          or{' '}
          <a className="text-brass-300 underline" href={telHref(contact.supportPhone)}>
            {contact.supportPhone}
          </a>
        </>
      ) : null}
    </>
  );
}

function NotPayable({ order, offer }: { order: OrderPaymentView; offer: Exclude<PayOffer, 'payable' | 'paid'> }) {
  const contact = useShopContact();
  if (offer === 'expired') {
    return (
      <div
        role="alert"
        className="rounded-lg border-2 border-alert-400 bg-alert-600/20 p-5"
        data-testid="quote-expired"
      >
        <h2 className="flex items-center gap-2 font-display text-lg font-bold uppercase tracking-wide text-alert-400">
          <TriangleAlert aria-hidden="true" className="size-5" /> {paymentMessages.quoteExpiredTitle}
        </h2>
        <p className="mt-2 text-khaki-50">
          This quote expired on <strong>{formatExpiryDate(order.quoteExpiresAt)}</strong> and can no longer be paid.
          Please <ExpiredContact contact={contact} /> for an updated quote.
        </p>
      </div>
    );
  }
  return (
    <Alert tone="warning" title="This order cannot be paid right now" data-testid="not-payable">
      <p>
        {offer === 'no_quote' ? paymentMessages.noQuote : paymentMessages.notAwaitingPayment} Its status is{' '}
        {statusLabel(order.status)}. If you think this is a mistake, please contact us.
      </p>
    </Alert>
  );
}

function PayScreen({ orderId }: { orderId: string }) {
  const order = useQuery({ queryKey: ['payment-order', orderId], queryFn: () => loadPaymentOrder(orderId), retry: 0 });
  const [paidNow, setPaidNow] = useState(false);

  if (order.isPending) return <Loading />;
  if (order.isError) return <LoadError />;
  const view = order.data;
  const offer = payOffer(view);
  if (paidNow || offer === 'paid') return <Success orderNumber={view.orderNumber} />;

  return (
    <Screen wide>
      <div className="mb-8 flex flex-col gap-2">
        <p className="text-sm font-bold uppercase tracking-[0.2em] text-brass-400">Quote payment</p>
        <h1 className="font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">Complete Your Payment</h1>
        <p className="text-khaki-200">
          Order <span className="font-mono font-semibold text-khaki-50">#{view.orderNumber}</span>
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="flex flex-col gap-6">
          <OrderSummary order={view} />
          <PaymentDetails order={view} />
        </div>
        <div className="flex flex-col gap-6" data-offer={offer}>
          {offer === 'payable' ? (
            <CardPayment order={view} onPaid={() => setPaidNow(true)} onStale={() => void order.refetch()} />
          ) : (
            <NotPayable order={view} offer={offer} />
          )}
          <HelpBox />
        </div>
      </div>
    </Screen>
  );
}

export default function PayPage({ orderId }: { orderId: string }) {
  return (
    <StorefrontQueries>
      <PayScreen key={orderId} orderId={orderId} />
    </StorefrontQueries>
  );
}
