// /track, search view: order number + email, no account needed. The lookup goes to the real
// POST /api/orders/track (orders service, quote-request work); the order and history views come with it.
import { PackageSearch } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Field, Input } from '@shop/ui';
import '../styles.css';

interface TrackedOrder {
  orderNumber: string;
  status: string;
}

type TrackAnswer = { success?: boolean; order?: Partial<TrackedOrder>; error?: string };

const messages = {
  missing: 'Please enter both order number and email address.',
  notFound: 'Order not found. Please check your order number and email address.',
  network: 'Unable to track order. Please try again later.',
};

async function trackOrder(orderNumber: string, email: string): Promise<TrackedOrder> {
  let response: Response;
  try {
    response = await fetch('/api/orders/track', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ orderNumber, email }),
    });
  } catch {
    throw new Error(messages.network);
  }
  const answer = (await response.json().catch(() => ({}))) as TrackAnswer;
  if (!response.ok || answer.success === false || !answer.order?.orderNumber) {
    throw new Error(answer.error || messages.notFound);
  }
  return { orderNumber: answer.order.orderNumber, status: answer.order.status ?? 'pending' };
}

export default function Track() {
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [order, setOrder] = useState<TrackedOrder | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setOrder(null);
    if (!orderNumber.trim() || !email.trim()) {
      setError(messages.missing);
      return;
    }
    setError(null);
    setSearching(true);
    try {
      setOrder(await trackOrder(orderNumber.trim(), email.trim()));
    } catch (e) {
      setError(e instanceof Error ? e.message : messages.network);
    } finally {
      setSearching(false);
    }
  }

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12" data-remote="storefront">
      <div className="mb-8 flex flex-col items-center gap-3 text-center">
        <PackageSearch aria-hidden="true" className="size-12 text-brass-400" />
        <h1 className="font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">Track Your Order</h1>
        <p className="text-khaki-200">Enter your order number and the email address you ordered with.</p>
      </div>
      <Card className="p-6">
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-describedby={error ? 'track-error' : undefined}>
          <Field label="Order number" required>
            <Input
              name="orderNumber"
              autoComplete="off"
              placeholder="e.g. CC-123456"
              value={orderNumber}
              // Order numbers are upper case (spec §5).
              onChange={(e) => setOrderNumber(e.target.value.toUpperCase())}
            />
          </Field>
          <Field label="Email address" required>
            <Input name="email" type="email" autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          {error ? (
            <p id="track-error" role="alert" className="rounded-md border border-alert-400/60 bg-alert-600/15 px-3 py-2 text-sm text-alert-400">
              {error}
            </p>
          ) : null}
          <Button type="submit" size="lg" loading={searching} loadingText="Tracking...">
            Track Order
          </Button>
          <p className="text-center text-sm text-khaki-300">No account required: your order number and email are all you need.</p>
        </form>
      </Card>
      {order ? (
        <Card className="mt-6 flex items-center justify-between gap-4 p-6" role="status">
          <span className="font-mono text-lg text-khaki-50">{order.orderNumber}</span>
          <Badge tone="brass">{order.status.replace(/_/g, ' ')}</Badge>
        </Card>
      ) : null}
    </div>
  );
}
