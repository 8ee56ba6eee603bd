// The order modals (spec §2 "Order modals"): Send Email, Apply Quote, Request More Information, Add
// Tracking Information, Admin Notes and Delete Order. Each one calls the orders service, shows the
// spec's message on failure (a toast, and the modal stays open with what was typed), and on success
// refreshes every order query so the table, the details overlay and the analytics agree.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminOrderMessages,
  carrierSchema,
  carriers,
  carrier as carrierLabels,
  defaultCarrier,
  defaultInfoRequestMessage,
  defaultOrderEmailSubject,
  formatMoney,
  infoRequestSubject,
  type AdminOrderDetail,
  type AdminOrderRow,
  type Carrier,
  type EmailHistoryType,
} from '@shop/contracts';
import { Button, Field, Input, Modal, Select, Spinner, Textarea, toast } from '@shop/ui';
import { AdminApiError } from '../api.js';
import {
  applyQuote,
  deleteOrder,
  fetchOrder,
  ordersKeys,
  reasonOf,
  requestInfo,
  saveAdminNotes,
  saveTracking,
  sendOrderEmail,
} from './api.js';
import { FormFooter } from './FormFooter.js';
import { Facts } from './Facts.js';
import { DiscountModal } from './DiscountModal.js';

type Order = AdminOrderRow | AdminOrderDetail;

export type OrderModalKind = 'email' | 'quote' | 'info' | 'tracking' | 'notes' | 'delete' | 'discount';

interface ModalProps {
  order: Order;
  onClose: () => void;
  /** After a successful change (the order was deleted when `deleted`). */
  onDone?: (deleted?: boolean) => void;
}

function useRefreshOrders() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ordersKeys.all });
}

/**
 * The order's details when the modal was opened from a table row (rows do not carry the description,
 * so the list stays light): Apply Quote and More Info show the description (spec §2) and the shipping
 * state of the tax note. Opened from the details overlay, the order is already complete.
 */
function useOrderDetail(order: Order): { detail: AdminOrderDetail | null; descriptionRow: [string, ReactNode] } {
  const complete = 'description' in order;
  const loaded = useQuery({
    queryKey: ordersKeys.detail(order.id),
    queryFn: ({ signal }) => fetchOrder(order.id, signal),
    enabled: !complete,
  });
  const detail = complete ? order : (loaded.data ?? null);
  const value: ReactNode = detail ? (
    <span className="whitespace-pre-line" data-testid="order-description">
      {detail.description || '—'}
    </span>
  ) : loaded.isError ? (
    <span className="text-alert-400">Could not load the description: {reasonOf(loaded.error)}</span>
  ) : (
    <Spinner size="sm" label="Loading the description" />
  );
  return { detail, descriptionRow: ['Description', value] };
}

/** A 4xx carries the server's own reason; a 5xx or a network failure gets the spec's generic text. */
const isClientRefusal = (error: unknown) => error instanceof AdminApiError && error.status >= 400 && error.status < 500;

export function SendEmailModal({
  order,
  onClose,
  onDone,
  defaultType = 'status_update',
}: ModalProps & { defaultType?: EmailHistoryType }) {
  const refresh = useRefreshOrders();
  const [subject, setSubject] = useState(defaultOrderEmailSubject(order.orderNumber));
  const [type, setType] = useState<EmailHistoryType>(defaultType);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = subject.trim() !== '' && message.trim() !== '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await sendOrderEmail(order.id, { subject: subject.trim(), message: message.trim(), type });
      toast.success(`Email for order #${order.orderNumber} sent to ${order.email}`);
      await refresh();
      onDone?.();
      onClose();
    } catch (error) {
      toast.error(adminOrderMessages.emailFailed, { description: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Send Email"
      description={`Order #${order.orderNumber}`}
      footer={
        <FormFooter onCancel={onClose} form="send-email-form" disabled={!ready} busy={busy} loadingText="Sending...">
          Send Email
        </FormFooter>
      }
    >
      <form id="send-email-form" className="flex flex-col gap-4" onSubmit={submit} aria-label="Send email">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Recipient name">
            <Input value={order.customerName} readOnly />
          </Field>
          <Field label="Recipient email">
            <Input value={order.email} readOnly />
          </Field>
        </div>
        <Field label="Subject" required>
          <Input value={subject} onChange={(e) => setSubject(e.target.value)} />
        </Field>
        <Field label="Email type">
          <Select value={type} onChange={(e) => setType(e.target.value as EmailHistoryType)}>
            <option value="status_update">Status Update</option>
            <option value="admin_message">General Message</option>
          </Select>
        </Field>
        <Field label="Message" required>
          <Textarea rows={5} value={message} onChange={(e) => setMessage(e.target.value)} />
        </Field>
      </form>
    </Modal>
  );
}

/** Says where the quote's sales tax comes from: it is added by the server when the quote is sent. */
function taxPlaceOf(order: ModalProps['order']): string {
  if ('taxExempt' in order && order.taxExempt) return 'No sales tax: tax-exempt military order.';
  const state = 'shippingAddress' in order ? (order.shippingAddress?.state ?? order.billingAddress?.state) : undefined;
  return state
    ? `Sales tax for the shipping state (${state}) is added when the quote is sent.`
    : 'Sales tax is added from the shipping state when the quote is sent.';
}

export function ApplyQuoteModal({ order, onClose, onDone }: ModalProps) {
  const refresh = useRefreshOrders();
  const [amount, setAmount] = useState(order.estimatedTotal > 0 ? order.estimatedTotal.toFixed(2) : '');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const parsed = Number.parseFloat(amount);
  const valid = amount.trim() !== '' && Number.isFinite(parsed) && parsed > 0;
  const { detail, descriptionRow } = useOrderDetail(order);
  const taxPlace = taxPlaceOf(detail ?? order);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec §5: a missing or non-numeric amount sends nothing.
    if (!valid || busy) return;
    setBusy(true);
    try {
      await applyQuote(order.id, Math.round(parsed * 100) / 100, notes);
      toast.success(`Quote of ${formatMoney(parsed)} sent to ${order.email}`);
      await refresh();
      onDone?.();
      onClose();
    } catch (error) {
      if (isClientRefusal(error)) toast.error(adminOrderMessages.quoteFailed(reasonOf(error)));
      // 503: tax rates could not be fetched; the server's message says what to do.
      else if (error instanceof AdminApiError && error.status === 503)
        toast.error(adminOrderMessages.quoteFailed(reasonOf(error)));
      else if (error instanceof AdminApiError && error.status >= 500)
        toast.error(adminOrderMessages.quoteGenerateFailed);
      else toast.error(adminOrderMessages.quoteError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Apply Quote"
      description={`Order #${order.orderNumber} · ${order.customerName}`}
      footer={
        <FormFooter onCancel={onClose} form="apply-quote-form" disabled={!valid} busy={busy} loadingText="Applying...">
          Send Quote
        </FormFooter>
      }
    >
      <form id="apply-quote-form" className="flex flex-col gap-4" onSubmit={submit} aria-label="Apply quote">
        <Facts
          boxed
          rows={[
            ['Item', order.itemType],
            ['Quantity', order.quantity.toLocaleString('en-US')],
            ['Current estimate', formatMoney(order.estimatedTotal)],
            descriptionRow,
          ]}
        />
        <Field
          label="Quote Amount"
          required
          hint={`In US dollars before tax, more than 0. ${taxPlace} The customer is emailed the quote with a payment link.`}
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </Field>
        <Field label="Quote Notes">
          <Textarea
            rows={3}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            placeholder="Optional: what the price includes"
          />
        </Field>
      </form>
    </Modal>
  );
}

export function InfoRequestModal({ order, onClose, onDone }: ModalProps) {
  const refresh = useRefreshOrders();
  const [message, setMessage] = useState(defaultInfoRequestMessage);
  const [busy, setBusy] = useState(false);
  const ready = message.trim() !== '';
  const { descriptionRow } = useOrderDetail(order);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    try {
      await requestInfo(order.id, message.trim());
      toast.success(`Information request sent to ${order.email}`);
      await refresh();
      onDone?.();
      onClose();
    } catch (error) {
      if (isClientRefusal(error)) toast.error(adminOrderMessages.infoEmailFailed(reasonOf(error)));
      else if (error instanceof AdminApiError && error.status >= 500) toast.error(adminOrderMessages.infoFailed);
      else toast.error(adminOrderMessages.infoError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Request More Information"
      description={`Order #${order.orderNumber}`}
      footer={
        <FormFooter onCancel={onClose} form="info-request-form" disabled={!ready} busy={busy} loadingText="Sending...">
          Send Request
        </FormFooter>
      }
    >
      <form
        id="info-request-form"
        className="flex flex-col gap-4"
        onSubmit={submit}
        aria-label="Request more information"
      >
        <Facts
          boxed
          rows={[['Customer', order.customerName], ['Email', order.email], ['Item', order.itemType], descriptionRow]}
        />
        <Field label="Message" required>
          <Textarea rows={6} value={message} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <p className="text-sm text-khaki-300" data-testid="info-request-subject">
          Emailed with the subject &lsquo;{infoRequestSubject(order.orderNumber)}&rsquo;.
        </p>
      </form>
    </Modal>
  );
}

export function TrackingModal({ order, onClose, onDone }: ModalProps) {
  const refresh = useRefreshOrders();
  const [carrier, setCarrier] = useState<Carrier>(order.tracking?.carrier ?? defaultCarrier);
  const [trackingNumber, setTrackingNumber] = useState(order.tracking?.trackingNumber ?? '');
  const [estimatedDelivery, setEstimatedDelivery] = useState(order.tracking?.estimatedDelivery?.slice(0, 10) ?? '');
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const numberMissing = trackingNumber.trim() === '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (numberMissing || busy) return;
    setBusy(true);
    try {
      await saveTracking(order.id, {
        carrier,
        trackingNumber: trackingNumber.trim(),
        // A date picked here means the end of that day's deliveries, not midnight UTC of the day before.
        estimatedDelivery: estimatedDelivery ? `${estimatedDelivery}T12:00:00.000Z` : undefined,
      });
      toast.success(`Tracking saved for order #${order.orderNumber}`);
      await refresh();
      onDone?.();
      onClose();
    } catch (error) {
      toast.error(adminOrderMessages.trackingFailed, { description: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Tracking Information"
      description={`Order #${order.orderNumber} · ${order.customerName}`}
      footer={
        <FormFooter onCancel={onClose} form="tracking-form" busy={busy} loadingText="Saving...">
          Save Tracking
        </FormFooter>
      }
    >
      <form
        id="tracking-form"
        className="flex flex-col gap-4"
        onSubmit={submit}
        noValidate
        aria-label="Tracking information"
      >
        <Field label="Carrier" required>
          <Select value={carrier} onChange={(e) => setCarrier(carrierSchema.parse(e.target.value))}>
            {carriers.map((c) => (
              <option key={c} value={c}>
                {carrierLabels.labels[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Tracking Number"
          required
          error={touched && numberMissing ? 'Tracking number is required' : undefined}
        >
          <Input value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Estimated Delivery" hint="Optional">
          <Input type="date" value={estimatedDelivery} onChange={(e) => setEstimatedDelivery(e.target.value)} />
        </Field>
      </form>
    </Modal>
  );
}

export function NotesModal({ order, onClose, onDone, initialNotes }: ModalProps & { initialNotes: string }) {
  const refresh = useRefreshOrders();
  const [notes, setNotes] = useState(initialNotes);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await saveAdminNotes(order.id, notes);
      toast.success('Notes saved');
      await refresh();
      onDone?.();
      onClose();
    } catch (error) {
      toast.error(adminOrderMessages.notesFailed, { description: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Admin Notes"
      description={`Order #${order.orderNumber} · internal, never shown to the customer`}
      footer={
        <FormFooter onCancel={onClose} form="admin-notes-form" busy={busy} loadingText="Saving...">
          Save Notes
        </FormFooter>
      }
    >
      <form id="admin-notes-form" onSubmit={submit} aria-label="Admin notes">
        <Field label="Notes">
          <Textarea rows={8} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </Field>
      </form>
    </Modal>
  );
}

export function DeleteOrderModal({ order, onClose, onDone }: ModalProps) {
  const refresh = useRefreshOrders();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await deleteOrder(order.id);
      toast.success(`Order #${order.orderNumber} deleted`);
      onDone?.(true);
      onClose();
      await refresh();
    } catch {
      toast.error(adminOrderMessages.deleteFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      size="sm"
      onOpenChange={(open) => !open && onClose()}
      title="Delete Order"
      description={`Order #${order.orderNumber} for ${order.customerName} will be removed for good.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} loading={busy} loadingText="Deleting...">
            Delete Order
          </Button>
        </>
      }
    >
      <p className="text-sm text-khaki-200">This cannot be undone. The customer is not notified.</p>
    </Modal>
  );
}

/** Opens the one modal asked for; `null` shows none. */
export function OrderModal({
  kind,
  order,
  adminNotes,
  onClose,
  onDone,
}: ModalProps & { kind: OrderModalKind | null; adminNotes?: string }) {
  switch (kind) {
    case 'email':
      return <SendEmailModal order={order} onClose={onClose} onDone={onDone} />;
    case 'quote':
      return <ApplyQuoteModal order={order} onClose={onClose} onDone={onDone} />;
    case 'info':
      return <InfoRequestModal order={order} onClose={onClose} onDone={onDone} />;
    case 'tracking':
      return <TrackingModal order={order} onClose={onClose} onDone={onDone} />;
    case 'notes':
      if (adminNotes !== undefined || 'adminNotes' in order) {
        return (
          <NotesModal
            order={order}
            onClose={onClose}
            onDone={onDone}
            initialNotes={adminNotes ?? ('adminNotes' in order ? order.adminNotes : '')}
          />
        );
      }
      return <NotesFromServer order={order} onClose={onClose} onDone={onDone} />;
    case 'delete':
      return <DeleteOrderModal order={order} onClose={onClose} onDone={onDone} />;
    case 'discount':
      return <DiscountModal order={order} onClose={onClose} />;
    default:
      return null;
  }
}

/** From a table row (which does not carry the notes): loads the order, then edits its notes. */
function NotesFromServer({ order, onClose, onDone }: ModalProps) {
  const detail = useQuery({
    queryKey: ordersKeys.detail(order.id),
    queryFn: ({ signal }) => fetchOrder(order.id, signal),
  });
  if (detail.data)
    return <NotesModal order={detail.data} onClose={onClose} onDone={onDone} initialNotes={detail.data.adminNotes} />;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Admin Notes"
      description={`Order #${order.orderNumber}`}
      size="sm"
    >
      {detail.isError ? (
        <p role="alert" className="text-sm text-alert-400">
          {adminOrderMessages.notesFailed}: {reasonOf(detail.error)}
        </p>
      ) : (
        <Spinner label="Loading the notes" />
      )}
    </Modal>
  );
}
