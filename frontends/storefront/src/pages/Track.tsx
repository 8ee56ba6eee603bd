// /track (storefront §2 "Tracking", §4, §5, §8): search -> order -> history. The order number is
// forced to upper case; the order answers only when number and email match (POST /api/orders/track);
// the history is asked for with that email AND the order number just proven (POST /api/orders/history).
import { useMutation, useQuery } from '@tanstack/react-query';
import { ArrowLeft, History, LifeBuoy, PackageSearch, Search } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from '@shop/ui/router';
import { carrier, catalog, formatMoney } from '@shop/contracts';
import { Alert, Badge, Button, Card, Field, Input, ProgressBar, Skeleton, buttonClasses, cn } from '@shop/ui';
import { orderHistory, trackOrder, type TrackedOrder } from '../api/shop.js';
import { messages } from '../messages.js';
import { StorefrontQueries } from '../query.js';
import {
  formatDate,
  progressPercent,
  sizeText,
  statusDescription,
  statusLabel,
  statusTone,
  trackingSteps,
} from '../track/model.js';
import '../styles.css';

type View = 'search' | 'order' | 'history';

interface SearchValues {
  orderNumber: string;
  email: string;
}

function itemName(order: TrackedOrder): string {
  return order.itemType ? (catalog[order.itemType]?.title ?? order.itemType) : 'Custom order';
}

function OrderView({
  order,
  historyCount,
  onHistory,
  onReset,
}: {
  order: TrackedOrder;
  historyCount: number;
  onHistory: () => void;
  onReset: () => void;
}) {
  const percent = progressPercent(order.status);
  const amount = order.finalAmount ?? order.estimatedTotal;
  return (
    <div className="flex flex-col gap-5" data-testid="tracked-order">
      <Card className="p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p className="text-sm text-khaki-300">Order</p>
            <p className="font-mono text-2xl font-bold text-khaki-50" data-testid="tracked-order-number">
              {order.orderNumber}
            </p>
          </div>
          <Badge tone={statusTone(order.status)} data-testid="status-badge">
            {statusLabel(order.status)}
          </Badge>
        </div>
        <p className="mt-3 text-khaki-200">{statusDescription(order.status)}</p>
        <div className="mt-4 flex flex-col gap-2">
          <div className="flex justify-between text-sm">
            <span className="text-khaki-200">Progress</span>
            <span className="font-semibold text-khaki-50" data-testid="progress-percent">
              {percent}%
            </span>
          </div>
          <ProgressBar value={percent} label="Order progress" valueText={`${percent}%: ${statusLabel(order.status)}`} />
          <ol className="grid grid-cols-5 gap-1 text-center text-[11px] leading-tight" data-testid="tracking-steps">
            {trackingSteps(order.status).map((s) => (
              <li
                key={s.status}
                aria-current={s.current ? 'step' : undefined}
                data-reached={s.reached ? 'true' : undefined}
                className={s.reached ? 'font-semibold text-brass-300' : 'text-khaki-300'}
              >
                {s.label}
              </li>
            ))}
          </ol>
        </div>
      </Card>

      <Card className="p-5">
        <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Product details</h2>
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm [&_dd]:[overflow-wrap:anywhere]">
          <dt className="text-khaki-300">Item</dt>
          <dd className="text-khaki-50">{itemName(order)}</dd>
          {order.size || order.sizeBreakdown ? (
            <>
              <dt className="text-khaki-300">Size</dt>
              <dd className="text-khaki-50" data-testid="tracked-size">
                {sizeText(order)}
              </dd>
            </>
          ) : null}
          {order.colors?.length ? (
            <>
              <dt className="text-khaki-300">Colors</dt>
              <dd className="text-khaki-50">{order.colors.join(', ')}</dd>
            </>
          ) : null}
          {order.quantity ? (
            <>
              <dt className="text-khaki-300">Quantity</dt>
              <dd className="text-khaki-50">{order.quantity.toLocaleString('en-US')}</dd>
            </>
          ) : null}
          {amount != null ? (
            <>
              <dt className="text-khaki-300">{order.finalAmount != null ? 'Total' : 'Estimated total'}</dt>
              <dd className="text-khaki-50">{formatMoney(amount)}</dd>
            </>
          ) : null}
          {order.discountCode ? (
            <>
              <dt className="text-khaki-300">Discount</dt>
              <dd className="text-khaki-50">
                {order.discountCode}
                {order.discountAmount ? ` (-${formatMoney(order.discountAmount)})` : ''}
              </dd>
            </>
          ) : null}
          {order.customerName ? (
            <>
              <dt className="text-khaki-300">Customer</dt>
              <dd className="text-khaki-50">{order.customerName}</dd>
            </>
          ) : null}
          {order.aiGenerated ? (
            <>
              <dt className="text-khaki-300">Design</dt>
              <dd className="text-khaki-50">AI generated</dd>
            </>
          ) : null}
        </dl>
      </Card>

      {order.tracking ? (
        <Card className="p-5" data-testid="tracked-shipment">
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Shipment</h2>
          <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm [&_dd]:[overflow-wrap:anywhere]">
            <dt className="text-khaki-300">Carrier</dt>
            <dd className="text-khaki-50">{carrier.labels[order.tracking.carrier]}</dd>
            <dt className="text-khaki-300">Tracking number</dt>
            <dd className="text-khaki-50">{order.tracking.trackingNumber}</dd>
            {order.tracking.estimatedDelivery ? (
              <>
                <dt className="text-khaki-300">Estimated delivery</dt>
                <dd className="text-khaki-50">{formatDate(order.tracking.estimatedDelivery)}</dd>
              </>
            ) : null}
          </dl>
        </Card>
      ) : null}

      <Card className="p-5">
        <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Timeline</h2>
        <ol className="mt-3 flex flex-col gap-3 border-l-2 border-olive-600 pl-4 text-sm">
          {(order.timeline?.length
            ? order.timeline
            : [{ status: order.status, label: 'Order submitted', date: order.submittedDate, note: undefined }]
          ).map((entry, i) => (
            <li key={`${entry.status}-${entry.date}-${i}`}>
              <p className="font-semibold text-khaki-50">{entry.label}</p>
              <p className="text-khaki-300">{formatDate(entry.date)}</p>
              {entry.note ? <p className="text-khaki-200">{entry.note}</p> : null}
            </li>
          ))}
        </ol>
      </Card>

      {order.description ? (
        <Card className="p-5">
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">Design description</h2>
          <p className="mt-2 whitespace-pre-wrap break-words text-khaki-100">{order.description}</p>
        </Card>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Link to="/support" className={buttonClasses('secondary', 'md')}>
          <LifeBuoy aria-hidden="true" className="size-4" /> Contact Support
        </Link>
        <Button variant="secondary" onClick={onReset}>
          <Search aria-hidden="true" className="size-4" /> Track Another Order
        </Button>
        {historyCount > 0 ? (
          <Button variant="secondary" onClick={onHistory}>
            <History aria-hidden="true" className="size-4" /> Order History ({historyCount})
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function HistoryView({ orders, onBack, onReset }: { orders: TrackedOrder[]; onBack: () => void; onReset: () => void }) {
  return (
    <div className="flex flex-col gap-4" data-testid="order-history">
      <h2 className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">Your previous orders</h2>
      <ul className="flex flex-col gap-3">
        {orders.map((o) => (
          <li key={o.orderNumber}>
            <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div>
                <p className="font-mono font-bold text-khaki-50">{o.orderNumber}</p>
                <p className="text-sm text-khaki-300">
                  {itemName(o)}
                  {o.quantity ? `, ${o.quantity.toLocaleString('en-US')} pcs` : ''}
                  {o.submittedDate ? `, ${formatDate(o.submittedDate)}` : ''}
                </p>
              </div>
              <Badge tone={statusTone(o.status)}>{statusLabel(o.status)}</Badge>
            </Card>
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button variant="secondary" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to Current Order
        </Button>
        <Button variant="secondary" onClick={onReset}>
          <Search aria-hidden="true" className="size-4" /> Track Different Order
        </Button>
      </div>
    </div>
  );
}

function TrackScreen() {
  const [view, setView] = useState<View>('search');
  const [proven, setProven] = useState<{ order: TrackedOrder; email: string } | null>(null);
  const form = useForm<SearchValues>({ defaultValues: { orderNumber: '', email: '' } });
  const [formError, setFormError] = useState<string | null>(null);

  const track = useMutation({
    mutationFn: ({ orderNumber, email }: SearchValues) => trackOrder(orderNumber, email),
    onSuccess: (order, { email }) => {
      setProven({ order, email });
      setView('order');
    },
    onError: (error) => setFormError(error.message),
  });

  const history = useQuery({
    queryKey: ['order-history', proven?.email, proven?.order.orderNumber],
    queryFn: () => orderHistory(proven!.email, proven!.order.orderNumber),
    enabled: proven !== null,
    staleTime: 60_000,
  });
  const others = history.data ?? [];

  function reset() {
    form.reset({ orderNumber: '', email: '' });
    setFormError(null);
    track.reset();
    setProven(null);
    setView('search');
  }

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12" data-remote="storefront" data-view={view}>
      <div className="mb-8 flex flex-col items-center gap-3 text-center">
        <PackageSearch aria-hidden="true" className="size-12 text-brass-400" />
        <h1 className="font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">Track Your Order</h1>
        {view === 'search' ? (
          <p className="text-khaki-200">Enter your order number and the email address you ordered with.</p>
        ) : null}
      </div>

      {view === 'search' ? (
        <Card className="p-6">
          <form
            noValidate
            className="flex flex-col gap-5"
            aria-describedby={formError ? 'track-error' : undefined}
            onSubmit={form.handleSubmit(({ orderNumber, email }) => {
              if (!orderNumber.trim() || !email.trim()) {
                setFormError(messages.trackMissing);
                return;
              }
              setFormError(null);
              track.mutate({ orderNumber: orderNumber.trim(), email: email.trim() });
            })}
          >
            <Field label="Order number" required>
              <Input
                autoComplete="off"
                placeholder="e.g. CC-123456"
                {...form.register('orderNumber', {
                  // Order numbers are upper case (§5).
                  onChange: (e: { target: HTMLInputElement }) =>
                    form.setValue('orderNumber', e.target.value.toUpperCase()),
                })}
              />
            </Field>
            <Field label="Email address" required>
              <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
            </Field>
            {formError ? (
              <p
                id="track-error"
                role="alert"
                className="rounded-md border border-alert-400/60 bg-alert-600/15 px-3 py-2 text-sm text-alert-400"
              >
                {formError}
              </p>
            ) : null}
            <Button type="submit" size="lg" loading={track.isPending} loadingText="Tracking...">
              Track Order
            </Button>
            <p className="text-center text-sm text-khaki-300">
              No account required: your order number and email are all you need.
            </p>
          </form>
        </Card>
      ) : null}

      {view === 'order' && proven ? (
        <>
          {history.isLoading ? <Skeleton className="mb-4 h-4 w-40" /> : null}
          <OrderView
            order={proven.order}
            historyCount={others.length}
            onHistory={() => setView('history')}
            onReset={reset}
          />
        </>
      ) : null}

      {view === 'history' && proven ? (
        others.length ? (
          <HistoryView orders={others} onBack={() => setView('order')} onReset={reset} />
        ) : (
          <Alert tone="info">No other orders for this email address.</Alert>
        )
      ) : null}
      <span className={cn('sr-only')} aria-live="polite">
        {view === 'order' && proven ? `Order ${proven.order.orderNumber}: ${statusLabel(proven.order.status)}` : ''}
      </span>
    </div>
  );
}

export default function Track() {
  return (
    <StorefrontQueries>
      <TrackScreen />
    </StorefrontQueries>
  );
}
