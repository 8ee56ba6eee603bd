// Apply Discount (back office part A §2 order modal 2, §4, §5, §7, §8, §9): a customer category selector,
// a code picker (selectable codes only, in a scroll area) with a manual-entry toggle (forced to upper
// case), the order summary, and Apply Discount ('Applying...'; submits less than 1 s apart are ignored
// and a second one while the first runs is skipped). Removing the discount asks for confirmation.
// The server decides: marketing checks the code again, orders recomputes the totals. The category chosen
// here goes with the discount (the order's discountCategory), never into the order's own category.
import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  customerCategories,
  customerCategory as customerCategoryLabels,
  defaultCustomerCategory,
  discountMessages,
  discountOfferedTo,
  discountSelectable,
  formatMoney,
  type AdminOrderDetail,
  type AdminOrderRow,
  type CustomerCategory,
  type DiscountCode,
} from '@shop/contracts';
import { Button, Checkbox, Field, Input, Modal, Select, Spinner, toast } from '@shop/ui';
import { AdminApiError } from '../api.js';
import { applyOrderDiscount, discountKeys, fetchDiscounts, removeOrderDiscount } from '../marketing/discounts/api.js';
import { fetchOrder, ordersKeys } from './api.js';
import { Facts } from './Facts.js';

/** Part A §9: discount submits closer than this are ignored. */
export const discountDebounceMs = 1000;

const valueText = (d: DiscountCode) => (d.type === 'percentage' ? `${d.value}% off` : `${formatMoney(d.value)} off`);

function Summary({ order }: { order: AdminOrderDetail }) {
  const subtotal = order.quote ? order.quote.amount : order.estimatedTotal;
  const final = order.finalAmount ?? Math.max(0, Math.round((order.estimatedTotal - order.discountAmount) * 100) / 100);
  return (
    <div className="rounded-md border border-olive-700 bg-ink-900/40 p-3" data-testid="discount-summary">
      <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-khaki-300">Order summary</h3>
      <Facts
        rows={[
          [order.quote ? 'Current total (quote)' : 'Current total (estimate)', formatMoney(subtotal)],
          [
            'Current discount',
            order.discountCode
              ? `-${formatMoney(order.discountAmount)} (${order.discountCode})${order.discountCategory ? ` for ${customerCategoryLabels.labels[order.discountCategory]}` : ''}`
              : 'None',
          ],
          [
            order.quote ? 'Final total (with tax)' : 'Final total',
            <span key="f" className="font-semibold text-khaki-50" data-testid="discount-final-total">
              {formatMoney(final)}
            </span>,
          ],
        ]}
      />
    </div>
  );
}

export function DiscountModal({
  order: given,
  onClose,
  onDone,
}: {
  order: AdminOrderRow | AdminOrderDetail;
  onClose: () => void;
  onDone?: () => void;
}) {
  const queryClient = useQueryClient();
  // Rows do not carry the quote: the summary needs the details.
  const complete = 'quote' in given;
  const loaded = useQuery({
    queryKey: ordersKeys.detail(given.id),
    queryFn: ({ signal }) => fetchOrder(given.id, signal),
    enabled: !complete,
  });
  const order = complete ? given : (loaded.data ?? null);
  const discounts = useQuery({ queryKey: discountKeys.all, queryFn: ({ signal }) => fetchDiscounts(signal) });

  const [category, setCategory] = useState<CustomerCategory>(defaultCustomerCategory);
  const [manual, setManual] = useState(false);
  const [code, setCode] = useState('');
  const [applying, setApplying] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [removing, setRemoving] = useState(false);
  const running = useRef(false);
  const lastSubmit = useRef(0);

  const now = new Date();
  const offered = (discounts.data ?? []).filter(
    (d) => discountSelectable(d, now) && discountOfferedTo(category, d.category),
  );

  async function refresh(updated: AdminOrderDetail) {
    queryClient.setQueryData(ordersKeys.detail(updated.id), updated);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
      queryClient.invalidateQueries({ queryKey: discountKeys.all }),
    ]);
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const at = Date.now();
    // §4: a submit less than 1 s after the last one is ignored; one while a submit runs is skipped.
    if (running.current || at - lastSubmit.current < discountDebounceMs) return;
    lastSubmit.current = at;
    const chosen = code.trim().toUpperCase();
    if (!chosen) {
      toast.error(discountMessages.selectCode);
      return;
    }
    running.current = true;
    setApplying(true);
    try {
      const result = await applyOrderDiscount(given.id, { discountCode: chosen, customerCategory: category });
      if (!result.ok) {
        toast.error(discountMessages.applyFailed(result.message));
        return;
      }
      toast.success(`Discount ${chosen} applied to order #${result.order.orderNumber}`);
      await refresh(result.order);
      onDone?.();
      onClose();
    } finally {
      running.current = false;
      setApplying(false);
    }
  }

  async function remove() {
    setRemoving(true);
    try {
      const updated = await removeOrderDiscount(given.id);
      toast.success(`Discount removed from order #${updated.orderNumber}`);
      setConfirmRemove(false);
      await refresh(updated);
    } catch (error) {
      toast.error(
        error instanceof AdminApiError && error.status > 0 && error.status < 500
          ? error.message
          : discountMessages.removeFailed,
      );
    } finally {
      setRemoving(false);
    }
  }

  return (
    <Modal
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title="Apply Discount"
      description={`Order #${given.orderNumber} for ${given.customerName}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="apply-discount"
            disabled={code.trim() === '' || applying}
            loading={applying}
            loadingText="Applying..."
          >
            Apply Discount
          </Button>
        </>
      }
    >
      <form id="apply-discount" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <Field label="Customer category">
          <Select
            value={category}
            onChange={(e) => {
              setCategory(e.target.value as CustomerCategory);
              // §5: changing the category clears the chosen code.
              setCode('');
            }}
          >
            {customerCategories.map((c) => (
              <option key={c} value={c}>
                {customerCategoryLabels.labels[c]}
              </option>
            ))}
          </Select>
        </Field>

        <Checkbox
          label="Enter a code manually"
          checked={manual}
          onChange={(e) => {
            setManual(e.target.checked);
            setCode('');
          }}
        />

        {manual ? (
          <Field label="Discount code">
            <Input
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
              autoComplete="off"
              className="font-mono uppercase"
              placeholder="SALUTE15"
            />
          </Field>
        ) : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-semibold text-khaki-100">Discount code</legend>
            {discounts.isPending ? (
              <Spinner label="Loading discount codes" />
            ) : discounts.isError ? (
              <p role="alert" className="text-sm text-alert-400">
                Discount codes could not be loaded: {discounts.error.message}. Enter a code manually instead.
              </p>
            ) : offered.length === 0 ? (
              <p className="text-sm text-khaki-300">No discount codes are available for this category.</p>
            ) : (
              <div
                className="max-h-56 overflow-y-auto rounded-md border border-olive-700"
                data-testid="discount-picker"
              >
                {offered.map((d) => (
                  <label
                    key={d.id}
                    className="grid cursor-pointer grid-cols-[auto_1fr] items-start gap-x-3 border-b border-olive-800 px-3 py-2 last:border-b-0 hover:bg-olive-800 has-[:checked]:bg-olive-700"
                  >
                    <input
                      type="radio"
                      name="discount-code"
                      value={d.code}
                      checked={code === d.code}
                      onChange={() => setCode(d.code)}
                      className="row-span-2 mt-1 accent-brass-400"
                    />
                    <span className="font-mono font-semibold text-khaki-50">
                      {d.code} <span className="font-sans font-normal text-brass-300">{valueText(d)}</span>
                    </span>
                    <span className="col-start-2 text-xs text-khaki-300">
                      {d.description} · {d.usedCount} / {d.maxUses ?? '∞'} used
                      {d.minOrder !== null ? ` · minimum ${formatMoney(d.minOrder)}` : ''}
                    </span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
        )}

        {order ? (
          <Summary order={order} />
        ) : loaded.isError ? (
          <p className="text-sm text-alert-400">The order's figures could not be loaded.</p>
        ) : (
          <Spinner label="Loading the order" />
        )}

        {order?.discountCode ? (
          confirmRemove ? (
            <div
              role="alertdialog"
              aria-label="Remove discount"
              className="flex flex-wrap items-center gap-3 rounded-md border border-alert-400/60 p-3 text-sm"
            >
              <span>Remove the discount {order.discountCode} from this order?</span>
              <Button
                size="sm"
                variant="danger"
                onClick={() => void remove()}
                loading={removing}
                loadingText="Removing..."
              >
                Remove
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmRemove(false)}>
                Keep it
              </Button>
            </div>
          ) : (
            <div>
              <Button size="sm" variant="secondary" onClick={() => setConfirmRemove(true)}>
                Remove Discount
              </Button>
            </div>
          )
        ) : null}
      </form>
    </Modal>
  );
}
