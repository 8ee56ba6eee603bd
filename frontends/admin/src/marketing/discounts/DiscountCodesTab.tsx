// Marketing's Discount Codes tab (back office part B §2.4, §3, §4, §5, §8, §9): the list (no maxUses shows
// ∞, no end date never expires), Create Discount Code (react-hook-form checked with the contracts'
// schema, the same one the server parses with), the active toggle applied only once the server
// succeeded, and delete after a confirmation ('Failed to delete discount code' when it fails).
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as Switch from '@radix-ui/react-switch';
import { Plus, Trash2 } from 'lucide-react';
import {
  discountCategories,
  discountCategoryLabels,
  discountCreateSchema,
  discountMessages,
  discountTypes,
  formatMoney,
  type DiscountCode,
  type DiscountCreate,
} from '@shop/contracts';
import {
  Badge,
  Button,
  Cell,
  DataTable,
  ErrorState,
  Field,
  Input,
  Modal,
  Select,
  Skeleton,
  Textarea,
  toast,
} from '@shop/ui';
import { AdminApiError } from '../../api.js';
import { createDiscount, deleteDiscount, discountKeys, fetchDiscounts, setDiscountActive } from './api.js';

/** The form's values as typed (numbers arrive as text; blanks mean "not given"). */
interface CreateValues {
  code: string;
  category: string;
  description: string;
  type: string;
  value: string;
  maxUses: string;
  endDate: string;
  minOrder: string;
}

const emptyForm: CreateValues = {
  code: '',
  category: 'general',
  description: '',
  type: 'percentage',
  value: '',
  maxUses: '',
  endDate: '',
  minOrder: '',
};

/** react-hook-form checks with the contracts' zod schema: the browser and the server say the same thing. */
const createResolver: Resolver<CreateValues> = async (values) => {
  const parsed = discountCreateSchema.safeParse(values);
  if (parsed.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'code');
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

export const valueText = (d: Pick<DiscountCode, 'type' | 'value'>) =>
  d.type === 'percentage' ? `${d.value}%` : formatMoney(d.value);
export const usesText = (d: Pick<DiscountCode, 'usedCount' | 'maxUses'>) => `${d.usedCount} / ${d.maxUses ?? '∞'}`;
export const expiryText = (d: Pick<DiscountCode, 'endDate'>) =>
  d.endDate
    ? new Date(d.endDate).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : 'Never expires';

function CreateDiscountModal({ onClose, onCreated }: { onClose: () => void; onCreated: (d: DiscountCode) => void }) {
  const [serverError, setServerError] = useState<string | undefined>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateValues>({ defaultValues: emptyForm, resolver: createResolver });

  const submit = handleSubmit(async (values) => {
    setServerError(undefined);
    const body: DiscountCreate = {
      code: values.code,
      category: values.category as DiscountCreate['category'],
      description: values.description,
      type: values.type as DiscountCreate['type'],
      value: values.value,
      // minOrder is sent only when present (part B §3).
      ...(values.maxUses.trim() ? { maxUses: values.maxUses } : {}),
      ...(values.endDate ? { endDate: values.endDate } : {}),
      ...(values.minOrder.trim() ? { minOrder: values.minOrder } : {}),
    };
    try {
      onCreated(await createDiscount(body));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const field =
        error instanceof AdminApiError && Array.isArray(error.details)
          ? (error.details[0] as { field?: string })?.field
          : undefined;
      if (field && field in emptyForm) setError(field as keyof CreateValues, { type: 'server', message });
      else setServerError(message);
      console.error('discount creation failed', error);
    }
  });

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Create Discount Code"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="create-discount" loading={isSubmitting} loadingText="Creating...">
            Create Discount Code
          </Button>
        </>
      }
    >
      <form id="create-discount" noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2">
        <Field label="Code" required error={errors.code?.message}>
          <Input {...register('code')} autoComplete="off" className="uppercase" placeholder="SALUTE15" />
        </Field>
        <Field label="Category" required error={errors.category?.message}>
          <Select {...register('category')}>
            {discountCategories.map((c) => (
              <option key={c} value={c}>
                {discountCategoryLabels[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Description" required error={errors.description?.message} className="sm:col-span-2">
          <Textarea {...register('description')} rows={2} className="min-h-16" />
        </Field>
        <Field label="Type" required error={errors.type?.message}>
          <Select {...register('type')}>
            {discountTypes.map((t) => (
              <option key={t} value={t}>
                {t === 'percentage' ? 'Percentage' : 'Fixed amount'}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Value" required error={errors.value?.message} hint="Percent (at most 100) or dollars; at least 1">
          <Input {...register('value')} type="number" inputMode="decimal" min={1} step="any" />
        </Field>
        <Field label="Max uses" error={errors.maxUses?.message} hint="Blank: unlimited">
          <Input {...register('maxUses')} type="number" inputMode="numeric" min={1} step={1} />
        </Field>
        <Field label="End date" error={errors.endDate?.message} hint="Blank: never expires">
          <Input {...register('endDate')} type="date" />
        </Field>
        <Field label="Minimum order" error={errors.minOrder?.message} hint="Dollars; blank: no minimum">
          <Input {...register('minOrder')} type="number" inputMode="decimal" min={0} step="0.01" />
        </Field>
        {serverError ? (
          <p role="alert" className="text-sm text-alert-400 sm:col-span-2">
            {serverError}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

function DeleteDiscountModal({
  discount,
  onClose,
  onDeleted,
}: {
  discount: DiscountCode;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await deleteDiscount(discount.id);
      onDeleted();
    } catch (error) {
      console.error('discount deletion failed', error);
      toast.error(discountMessages.deleteFailed);
      setBusy(false);
    }
  }
  return (
    <Modal
      open
      size="sm"
      onOpenChange={(open) => !open && onClose()}
      title="Delete Discount Code"
      description={`Delete ${discount.code}? Orders that already have it keep their discount.`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} loading={busy} loadingText="Deleting...">
            Delete
          </Button>
        </>
      }
    >
      <p className="text-sm text-khaki-200">This cannot be undone.</p>
    </Modal>
  );
}

/** `startCreating`: opened from the Marketing overview's quick action, with Create Discount Code open. */
export function DiscountCodesTab({ startCreating = false }: { startCreating?: boolean }) {
  const queryClient = useQueryClient();
  const discounts = useQuery({ queryKey: discountKeys.all, queryFn: ({ signal }) => fetchDiscounts(signal) });
  const [creating, setCreating] = useState(startCreating);
  const [deleting, setDeleting] = useState<DiscountCode | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  const replaceInList = (update: (list: DiscountCode[]) => DiscountCode[]) =>
    queryClient.setQueryData<DiscountCode[]>(discountKeys.all, (list) => update(list ?? []));

  async function toggle(d: DiscountCode, isActive: boolean) {
    setToggling(d.id);
    try {
      // Applied locally only once the server said yes (part B §4).
      const saved = await setDiscountActive(d.id, isActive);
      replaceInList((list) => list.map((x) => (x.id === saved.id ? saved : x)));
    } catch (error) {
      // Part B §8: a failed toggle is only logged; the switch stays as it was.
      console.error('discount toggle failed', error);
    } finally {
      setToggling(null);
    }
  }

  return (
    <section aria-labelledby="discount-codes-title" className="flex flex-col gap-4" data-testid="discount-codes-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="discount-codes-title" className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">
          Discount Codes
        </h2>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" className="size-4" /> Create Discount Code
        </Button>
      </div>

      {discounts.isPending ? (
        <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading discount codes">
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
          <Skeleton className="h-12" />
        </div>
      ) : discounts.isError ? (
        <ErrorState
          title="Discount codes could not be loaded"
          message={discounts.error.message}
          onRetry={() => void discounts.refetch()}
        />
      ) : discounts.data.length === 0 ? (
        <div className="rounded-lg border border-dashed border-olive-600 p-8 text-center text-khaki-300">
          <p>No discount codes yet.</p>
          <Button className="mt-3" variant="secondary" onClick={() => setCreating(true)}>
            Create Discount Code
          </Button>
        </div>
      ) : (
        <DataTable
          look="raised"
          className="min-w-[760px]"
          columns={[
            'Code',
            'Category',
            'Discount',
            'Uses',
            'Min order',
            'Expires',
            'Active',
            { label: 'Actions', hidden: true },
          ]}
        >
          {discounts.data.map((d) => (
            <tr key={d.id} data-testid={`discount-row-${d.code}`}>
              <Cell>
                <span className="font-mono font-semibold text-khaki-50">{d.code}</span>
                <span className="block text-xs text-khaki-300">{d.description}</span>
              </Cell>
              <Cell>
                <Badge tone="neutral">{discountCategoryLabels[d.category]}</Badge>
              </Cell>
              <Cell className="text-khaki-100">{valueText(d)}</Cell>
              <Cell className="text-khaki-100" data-testid="discount-uses">
                {usesText(d)}
              </Cell>
              <Cell className="text-khaki-100">{d.minOrder !== null ? formatMoney(d.minOrder) : '—'}</Cell>
              <Cell className="text-khaki-100" data-testid="discount-expires">
                {expiryText(d)}
              </Cell>
              <Cell>
                <Switch.Root
                  checked={d.isActive}
                  disabled={toggling === d.id}
                  onCheckedChange={(on) => void toggle(d, on)}
                  aria-label={`${d.code} active`}
                  className="relative h-6 w-11 shrink-0 rounded-full border border-olive-500 bg-ink-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 disabled:opacity-60 data-[state=checked]:bg-brass-400"
                >
                  <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-khaki-100 transition-transform data-[state=checked]:translate-x-5 motion-reduce:transition-none" />
                </Switch.Root>
              </Cell>
              <Cell align="right">
                <Button variant="ghost" size="sm" onClick={() => setDeleting(d)} aria-label={`Delete ${d.code}`}>
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}

      {creating ? (
        <CreateDiscountModal
          onClose={() => setCreating(false)}
          onCreated={(d) => {
            replaceInList((list) => [d, ...list]);
            setCreating(false);
            toast.success(`Discount code ${d.code} created`);
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteDiscountModal
          discount={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            replaceInList((list) => list.filter((x) => x.id !== deleting.id));
            toast.success(`Discount code ${deleting.code} deleted`);
            setDeleting(null);
          }}
        />
      ) : null}
    </section>
  );
}

export default DiscountCodesTab;
