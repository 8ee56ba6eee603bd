// Above the orders list: payments the provider took that did not pay their order (paid on a page whose
// total changed, or a second payment for an order already paid). The money is owed back; the team refunds
// each in Stripe's dashboard and marks it refunded here. Shown only while there are any.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, TriangleAlert } from 'lucide-react';
import { formatMoney, refundDueMessages, type RefundDue } from '@shop/contracts';
import { Alert, Button, Cell, DataTable, toast } from '@shop/ui';
import { fetchOpenRefundsDue, markRefunded, ordersKeys } from './api.js';
import { formatDateTime } from './format.js';

/** Stripe's dashboard page of the payment (test-mode payments exist only in the shop). */
const stripePaymentUrl = (paymentIntentId: string) =>
  `https://dashboard.stripe.com/payments/${encodeURIComponent(paymentIntentId)}`;

export function RefundsDuePanel() {
  const queryClient = useQueryClient();
  const refunds = useQuery({ queryKey: ordersKeys.refundsDue, queryFn: ({ signal }) => fetchOpenRefundsDue(signal) });
  const mark = useMutation({
    mutationFn: (refund: RefundDue) => markRefunded(refund.paymentIntentId),
    onSuccess: (refund) => {
      toast.success(refundDueMessages.markedRefunded(refund.orderNumber));
      void queryClient.invalidateQueries({ queryKey: ordersKeys.refundsDue });
    },
    onError: (error) => toast.error(error instanceof Error ? error.message : refundDueMessages.markFailed),
  });

  if (refunds.isError)
    return (
      <Alert tone="error" title={refundDueMessages.loadFailed}>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void refunds.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  const due = refunds.data ?? [];
  if (due.length === 0) return null;
  const total = due.reduce((sum, r) => sum + r.amount, 0);

  return (
    // A section, not an Alert: its table and buttons are not a live region to re-announce on each change.
    <section
      aria-labelledby="refunds-due-title"
      data-testid="refunds-due"
      className="rounded-md border border-caution-400/60 bg-caution-400/10 px-3 py-2.5 text-sm"
    >
      <h3 id="refunds-due-title" className="flex items-center gap-2 font-semibold text-caution-400">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        {due.length === 1 ? '1 payment is' : `${due.length} payments are`} due for a refund ({formatMoney(total)})
      </h3>
      <p className="mt-1 text-khaki-100">
        These payments did not pay their order, so the orders were not marked paid. Refund each in Stripe, then mark it
        refunded.
      </p>
      <DataTable
        frameClassName="mt-3"
        className="text-khaki-100"
        caption="Payments due for a refund"
        columns={['Order', 'Taken', 'Order total', 'Why', 'Paid', { label: 'Actions', hidden: true }]}
      >
        {due.map((r) => (
          <tr key={r.paymentIntentId} data-payment-intent={r.paymentIntentId}>
            <Cell className="whitespace-nowrap font-mono text-khaki-50">#{r.orderNumber}</Cell>
            <Cell className="whitespace-nowrap">{formatMoney(r.amount)}</Cell>
            <Cell className="whitespace-nowrap">{r.orderTotal === null ? '—' : formatMoney(r.orderTotal)}</Cell>
            <Cell className="max-w-md break-words">{r.reason}</Cell>
            <Cell className="whitespace-nowrap">{formatDateTime(r.paidAt ?? r.recordedAt)}</Cell>
            <Cell align="right" className="whitespace-nowrap">
              <div className="flex justify-end gap-2">
                {r.provider === 'stripe' ? (
                  <a
                    href={stripePaymentUrl(r.paymentIntentId)}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 text-brass-300 underline"
                  >
                    Open in Stripe
                    <ExternalLink aria-hidden="true" className="size-3" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : null}
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => mark.mutate(r)}
                  loading={mark.isPending && mark.variables?.paymentIntentId === r.paymentIntentId}
                  loadingText="Saving..."
                  aria-label={`Mark the payment for order #${r.orderNumber} refunded`}
                >
                  Mark refunded
                </Button>
              </div>
            </Cell>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
