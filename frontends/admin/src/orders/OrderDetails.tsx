// The order details overlay (spec §2 "Order details view"): header with the order number, customer and
// status; customer info, product details, timeline, tracking, discount, quote (with its tax), payment,
// description, files, admin notes, a compose-email form and the email history. Edit mode (view -> edit -> saved or
// cancelled) reads the quantity as a whole number and the total as a decimal; anything else is 0.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as RadixDialog from '@radix-ui/react-dialog';
import {
  BadgePercent,
  Bot,
  ExternalLink,
  FileText,
  Inbox,
  Mail,
  MessageSquare,
  Pencil,
  RefreshCw,
  Send,
  Sparkles,
  Truck,
  X,
} from 'lucide-react';
import {
  adminOrderMessages,
  carrier as carrierLabels,
  customerCategory,
  defaultOrderEmailSubject,
  editQuantity,
  editTotal,
  type AdminEmailHistoryEntry,
  type AdminOrderDetail,
  type EmailHistoryType,
  formatMegabytes,
  formatMoney,
} from '@shop/contracts';
import { Badge, Button, ErrorState, Field, Input, Select, Skeleton, Textarea, cn, toast } from '@shop/ui';
import { editOrder, fetchOrder, ordersKeys, reasonOf, sendOrderEmail } from './api.js';
import { formatDate, formatDateTime, formatTaxRate, spaced } from './format.js';
import { OrderModal, type OrderModalKind } from './modals.js';
import { StatusBadge } from './status.js';
import { Facts } from './Facts.js';

function Section({
  title,
  children,
  className,
  testId,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <section
      className={cn('rounded-lg border border-olive-700 bg-ink-900/60 p-4', className)}
      aria-label={title}
      data-testid={testId}
    >
      <h3 className="mb-3 font-display text-base font-bold uppercase tracking-wide text-brass-300">{title}</h3>
      {children}
    </section>
  );
}

const emailTypeIcon: Record<EmailHistoryType, typeof Mail> = {
  admin_message: Mail,
  status_update: RefreshCw,
  customer_inquiry: MessageSquare,
};
const emailTypeLabel: Record<EmailHistoryType, string> = {
  admin_message: 'Message',
  status_update: 'Status update',
  customer_inquiry: 'Customer inquiry',
};

function EmailHistory({ entries }: { entries: AdminEmailHistoryEntry[] }) {
  if (!entries.length) return <p className="text-sm text-khaki-300">No emails sent yet.</p>;
  return (
    <ul
      className="flex max-h-80 flex-col gap-2 overflow-y-auto pr-1"
      data-testid="email-history"
      tabIndex={0}
      aria-label="Emails sent for this order"
    >
      {entries.map((entry) => {
        const Icon = emailTypeIcon[entry.type];
        return (
          <li key={entry.id} className="rounded-md border border-olive-700 bg-olive-900 p-3">
            <div className="flex items-start justify-between gap-3">
              <p className="flex min-w-0 items-center gap-2 font-semibold text-khaki-50">
                <Icon aria-label={emailTypeLabel[entry.type]} role="img" className="size-4 shrink-0 text-brass-400" />
                <span className="truncate">{entry.subject}</span>
              </p>
              <span className="shrink-0 text-xs text-khaki-300">{formatDateTime(entry.sentAt ?? entry.timestamp)}</span>
            </div>
            <p className="mt-1 line-clamp-2 text-sm text-khaki-200">{entry.preview}</p>
            <p className="mt-1 text-xs text-khaki-400">
              To {entry.to} · {entry.status === 'sent' ? 'Sent' : entry.status === 'failed' ? 'Failed' : 'Queued'}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

function ComposeEmail({ order }: { order: AdminOrderDetail }) {
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState(defaultOrderEmailSubject(order.orderNumber));
  const [type, setType] = useState<EmailHistoryType>('admin_message');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = subject.trim() !== '' && message.trim() !== '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      const { order: updated } = await sendOrderEmail(order.id, {
        subject: subject.trim(),
        message: message.trim(),
        type,
      });
      queryClient.setQueryData(ordersKeys.detail(order.id), updated);
      await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
      toast.success(`Email for order #${order.orderNumber} sent to ${order.email}`);
      setMessage('');
    } catch (error) {
      toast.error(adminOrderMessages.emailFailed, { description: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-3" onSubmit={submit} aria-label="Compose email">
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
        <Field label="Subject" required>
          <Input value={subject} onChange={(e) => setSubject(e.target.value)} />
        </Field>
        <Field label="Email type">
          <Select value={type} onChange={(e) => setType(e.target.value as EmailHistoryType)}>
            <option value="admin_message">General Message</option>
            <option value="status_update">Status Update</option>
          </Select>
        </Field>
      </div>
      <Field label="Message" required>
        <Textarea rows={5} value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={!ready} loading={busy} loadingText="Sending...">
          <Send aria-hidden="true" className="size-4" />
          Send Email
        </Button>
      </div>
    </form>
  );
}

interface Draft {
  customerName: string;
  email: string;
  phone: string;
  quantity: string;
  total: string;
  description: string;
  notes: string;
}

const draftOf = (order: AdminOrderDetail): Draft => ({
  customerName: order.customerName,
  email: order.email,
  phone: order.phone ?? '',
  quantity: String(order.quantity),
  total: order.estimatedTotal.toFixed(2),
  description: order.description,
  notes: order.notes,
});

function EditForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(order));
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const updated = await editOrder(order.id, {
        customerName: draft.customerName.trim() || undefined,
        email: draft.email.trim() || undefined,
        phone: draft.phone.trim(),
        // Spec §5: an invalid quantity or total becomes 0.
        quantity: editQuantity(draft.quantity),
        total: editTotal(draft.total),
        description: draft.description,
        notes: draft.notes,
      });
      queryClient.setQueryData(ordersKeys.detail(order.id), updated);
      await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
      toast.success(`Order #${order.orderNumber} saved`);
      onDone();
    } catch (error) {
      toast.error('Failed to save the order', { description: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={save} aria-label="Edit order" data-testid="edit-order-form">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Customer name">
          <Input value={draft.customerName} onChange={set('customerName')} />
        </Field>
        <Field label="Email">
          <Input type="email" value={draft.email} onChange={set('email')} />
        </Field>
        <Field label="Phone">
          <Input value={draft.phone} onChange={set('phone')} />
        </Field>
        <Field label="Quantity" hint="A whole number; anything else is saved as 0">
          <Input inputMode="numeric" value={draft.quantity} onChange={set('quantity')} />
        </Field>
        <Field label="Total" hint="In US dollars; anything else is saved as 0">
          <Input inputMode="decimal" value={draft.total} onChange={set('total')} />
        </Field>
      </div>
      <Field label="Description">
        <Textarea rows={4} value={draft.description} onChange={set('description')} />
      </Field>
      <Field label="Order notes" hint="Seen with the order; internal notes go in Admin Notes">
        <Textarea rows={3} value={draft.notes} onChange={set('notes')} />
      </Field>
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy} loadingText="Saving...">
          Save Changes
        </Button>
      </div>
    </form>
  );
}

function DetailsBody({ order, onAction }: { order: AdminOrderDetail; onAction: (kind: OrderModalKind) => void }) {
  const [editing, setEditing] = useState(false);
  const address = order.shippingAddress;
  return (
    <div className="flex flex-col gap-4">
      {editing ? (
        <Section title="Edit Order">
          <EditForm order={order} onDone={() => setEditing(false)} />
        </Section>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Customer" testId="details-customer">
          <Facts
            rows={[
              ['Name', order.customerName],
              [
                'Email',
                <a
                  key="e"
                  className="underline decoration-brass-400/60 hover:text-brass-300"
                  href={`mailto:${order.email}`}
                >
                  {order.email}
                </a>,
              ],
              ['Phone', order.phone || '—'],
              ['Category', customerCategory.labels[order.customerCategory]],
              ...(address
                ? ([['Ship to', Object.values(address).filter(Boolean).join(', ')]] as Array<[string, ReactNode]>)
                : []),
            ]}
          />
        </Section>
        <Section title="Product" testId="details-product">
          <Facts
            rows={[
              [
                'Item type',
                <span key="t" className="capitalize">
                  {order.itemType}
                </span>,
              ],
              [
                'Design method',
                <span key="d" className="capitalize">
                  {spaced(order.designMethod)}
                </span>,
              ],
              ['Quantity', order.quantity.toLocaleString('en-US')],
              ['Total', formatMoney(order.total)],
              ...(order.finalAmount !== null
                ? ([['Estimate', formatMoney(order.estimatedTotal)]] as Array<[string, ReactNode]>)
                : []),
              ...(order.size ? ([['Size', order.size]] as Array<[string, ReactNode]>) : []),
              ...(order.sizeBreakdown
                ? ([
                    [
                      'Sizes',
                      Object.entries(order.sizeBreakdown)
                        .filter(([, n]) => n > 0)
                        .map(([s, n]) => `${s}: ${n}`)
                        .join(', '),
                    ],
                  ] as Array<[string, ReactNode]>)
                : []),
              ...(order.colors.length ? ([['Colors', order.colors.join(', ')]] as Array<[string, ReactNode]>) : []),
              ...(order.finish ? ([['Finish', spaced(order.finish)]] as Array<[string, ReactNode]>) : []),
              ...(order.shape ? ([['Shape', order.shape]] as Array<[string, ReactNode]>) : []),
              ...(order.edge ? ([['Edge', order.edge]] as Array<[string, ReactNode]>) : []),
              ...(order.features.length
                ? ([['Features', order.features.join(', ')]] as Array<[string, ReactNode]>)
                : []),
            ]}
          />
        </Section>
        <Section title="Timeline" testId="details-timeline">
          <Facts
            rows={[
              ['Submitted', formatDateTime(order.submittedDate)],
              ['Updated', formatDateTime(order.lastUpdate)],
            ]}
          />
          {order.aiGenerated ? (
            <Badge tone="brass" className="mt-2">
              <Sparkles aria-hidden="true" className="size-3" />
              AI generated
            </Badge>
          ) : null}
          {order.timeline.length ? (
            <ol className="mt-3 flex flex-col gap-1.5 border-l border-olive-600 pl-3 text-sm">
              {order.timeline.map((step, i) => (
                <li key={`${step.date}-${i}`}>
                  <span className="font-semibold text-khaki-50">{step.label}</span>{' '}
                  <span className="text-khaki-300">
                    {formatDateTime(step.date)}
                    {step.changedBy ? ` · ${step.changedBy}` : ''}
                  </span>
                  {step.note ? <p className="text-xs text-khaki-300">{step.note}</p> : null}
                </li>
              ))}
            </ol>
          ) : null}
        </Section>
        <div className="flex flex-col gap-4">
          {order.tracking ? (
            <Section title="Tracking" testId="details-tracking">
              <Facts
                rows={[
                  ['Carrier', carrierLabels.labels[order.tracking.carrier]],
                  [
                    'Tracking number',
                    <span key="n" className="font-mono">
                      {order.tracking.trackingNumber}
                    </span>,
                  ],
                  [
                    'Estimated delivery',
                    order.tracking.estimatedDelivery ? formatDate(order.tracking.estimatedDelivery) : 'Not given',
                  ],
                ]}
              />
            </Section>
          ) : null}
          {order.discountCode ? (
            <Section title="Discount Applied" testId="details-discount">
              <Facts
                rows={[
                  [
                    'Code',
                    <span key="c" className="font-mono">
                      {order.discountCode}
                    </span>,
                  ],
                  ['Amount', formatMoney(order.discountAmount)],
                ]}
              />
            </Section>
          ) : null}
          {order.quote ? (
            <Section title="Quote" testId="details-quote">
              <Facts
                rows={[
                  ['Amount', formatMoney(order.quote.amount)],
                  [
                    'Tax',
                    order.quote.taxAmount > 0
                      ? `${formatMoney(order.quote.taxAmount)} (${formatTaxRate(order.quote.taxRate)}${order.quote.taxBasis ? `, ${order.quote.taxBasis}` : ''})`
                      : `${formatMoney(0)}${order.quote.taxBasis ? ` (${order.quote.taxBasis})` : ''}`,
                  ],
                  ['Final amount', formatMoney(order.quote.finalAmount)],
                  ['Sent', formatDateTime(order.quote.sentAt)],
                  ['Valid until', formatDate(order.quote.expiresAt)],
                  ...(order.quote.notes ? ([['Notes', order.quote.notes]] as Array<[string, ReactNode]>) : []),
                  [
                    'Payment link',
                    <a
                      key="p"
                      className="underline decoration-brass-400/60 hover:text-brass-300"
                      href={order.quote.paymentPath}
                    >
                      {order.quote.paymentPath}
                    </a>,
                  ],
                ]}
              />
            </Section>
          ) : null}
          {order.payment ? (
            <Section title="Payment" testId="details-payment">
              <Facts
                rows={[
                  ['Paid', formatDateTime(order.payment.paidAt)],
                  ['Amount', formatMoney(order.payment.amount)],
                  [
                    'Payment reference',
                    <span key="r" className="font-mono">
                      {order.payment.paymentIntentId}
                    </span>,
                  ],
                  ['Provider', order.payment.provider === 'stripe' ? 'Stripe' : 'Test mode (no real charge)'],
                ]}
              />
            </Section>
          ) : null}
        </div>
      </div>
      <Section title="Description" testId="details-description">
        <p className="whitespace-pre-wrap text-sm text-khaki-100">{order.description || 'No description given.'}</p>
        {order.notes ? <p className="mt-2 whitespace-pre-wrap text-sm text-khaki-300">Notes: {order.notes}</p> : null}
      </Section>
      <Section title="Files and Attachments" testId="details-files">
        {order.files.length ? (
          <ul className="flex flex-col divide-y divide-olive-700">
            {order.files.map((file) => (
              <li key={file.url} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  <FileText aria-hidden="true" className="size-4 shrink-0 text-brass-400" />
                  <span className="truncate font-semibold text-khaki-50">{file.originalName}</span>
                  <span className="text-khaki-300">{formatMegabytes(file.size)}</span>
                  <span className="text-khaki-400">{file.mimetype}</span>
                </span>
                <a
                  href={file.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex items-center gap-1 text-brass-300 underline decoration-brass-400/60 hover:text-brass-200"
                  aria-label={`View File ${file.originalName}`}
                >
                  View File
                  <ExternalLink aria-hidden="true" className="size-3.5" />
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-khaki-300">No files attached.</p>
        )}
        {order.aiDesignId ? (
          <p className="mt-2 flex items-center gap-2 text-sm text-khaki-200">
            <Bot aria-hidden="true" className="size-4 text-brass-400" />
            AI design attached to this order.
          </p>
        ) : null}
      </Section>
      <Section title="Admin Notes" testId="details-admin-notes">
        <p className="whitespace-pre-wrap text-sm text-khaki-100">{order.adminNotes || 'No admin notes yet.'}</p>
        {order.adminNotesUpdatedAt ? (
          <p className="mt-1 text-xs text-khaki-400">
            Last edited {formatDateTime(order.adminNotesUpdatedAt)}
            {order.adminNotesUpdatedBy ? ` by ${order.adminNotesUpdatedBy}` : ''}
          </p>
        ) : null}
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => onAction('notes')}>
          <Pencil aria-hidden="true" className="size-4" />
          Update Notes
        </Button>
      </Section>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Compose Email">
          <ComposeEmail order={order} />
        </Section>
        <Section title="Email History">
          <EmailHistory entries={order.emailHistory} />
        </Section>
      </div>
      {editing ? null : (
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" className="size-4" />
            Edit Order
          </Button>
        </div>
      )}
    </div>
  );
}

/** A full-height overlay (a Radix dialog: focus trapped, Escape closes, focus goes back to the row). */
export function OrderDetails({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ordersKeys.detail(orderId),
    queryFn: ({ signal }) => fetchOrder(orderId, signal),
    retry: 1,
  });
  const [modal, setModal] = useState<OrderModalKind | null>(null);
  const order = detail.data;

  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/70 backdrop-blur-sm" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-40 flex w-full max-w-5xl flex-col border-l border-olive-500 bg-olive-900 text-khaki-100 shadow-2xl shadow-black/60 focus:outline-none"
          data-testid="order-details"
        >
          <div className="flex flex-wrap items-start justify-between gap-3 border-b border-olive-700 px-5 py-4">
            <div className="min-w-0">
              <RadixDialog.Title className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
                {order ? `Order #${order.orderNumber}` : 'Order details'}
              </RadixDialog.Title>
              {order ? (
                <div className="mt-1 flex flex-wrap items-center gap-2">
                  <span className="text-khaki-200">{order.customerName}</span>
                  <StatusBadge status={order.status} />
                </div>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {order ? (
                <>
                  {order.status === 'pending_quote' ? (
                    <Button size="sm" onClick={() => setModal('quote')}>
                      Apply Quote
                    </Button>
                  ) : null}
                  <Button size="sm" variant="secondary" onClick={() => setModal('tracking')}>
                    <Truck aria-hidden="true" className="size-4" />
                    Add Tracking
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => setModal('discount')}>
                    <BadgePercent aria-hidden="true" className="size-4" />
                    Apply Discount
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => setModal('email')}>
                    <Mail aria-hidden="true" className="size-4" />
                    Send Email
                  </Button>
                </>
              ) : null}
              <RadixDialog.Close
                className="rounded-md p-1.5 text-khaki-300 hover:bg-olive-700 hover:text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
                aria-label="Close order details"
              >
                <X aria-hidden="true" className="size-5" />
              </RadixDialog.Close>
            </div>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">
            {detail.isPending ? (
              <div className="flex flex-col gap-4" aria-busy="true" aria-label="Loading the order">
                <Skeleton className="h-32 w-full" />
                <Skeleton className="h-48 w-full" />
                <Skeleton className="h-24 w-full" />
              </div>
            ) : detail.isError ? (
              <ErrorState
                title="The order could not be loaded"
                message={reasonOf(detail.error)}
                onRetry={() => void detail.refetch()}
                retrying={detail.isFetching}
              />
            ) : order ? (
              <DetailsBody order={order} onAction={setModal} />
            ) : (
              <div className="flex flex-col items-center gap-2 py-12 text-center">
                <Inbox aria-hidden="true" className="size-10 text-khaki-400" />
                <p>{adminOrderMessages.orderNotFound}</p>
              </div>
            )}
          </div>
          {order && modal ? (
            <OrderModal
              kind={modal}
              order={order}
              onClose={() => setModal(null)}
              onDone={(deleted) => {
                if (deleted) onClose();
              }}
            />
          ) : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
