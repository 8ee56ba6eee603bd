// Subscribers tab (part B §2.4, §3, §4, §5, §8): the list with status, opens and orders; Add Subscriber
// (react-hook-form checked with the contracts' schema the service parses with: name and email required,
// email format, phone optional, category default general, email on and SMS off); the email and SMS
// subscriptions toggled independently (the list changes once the server said yes); remove after a
// confirmation. 'Failed to add subscriber', or the server's own words (a duplicate email...).
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2, UserPlus } from 'lucide-react';
import {
  customerCategories,
  customerCategory,
  marketingMessages,
  subscriberCreateSchema,
  type CustomerCategory,
  type Subscriber,
  type SubscriberPatch,
} from '@shop/contracts';
import { Badge, Button, Cell, Checkbox, DataTable, Field, Input, Modal, Select, toast } from '@shop/ui';
import { AdminApiError } from '../api.js';
import { formatDate } from '../orders/format.js';
import {
  addSubscriber,
  fetchSubscribers,
  marketingKeys,
  patchSubscriber,
  removeSubscriber,
  zodResolver,
} from './api.js';
import { ConfirmModal, QueryState, Toggle } from './parts.js';

interface SubscriberValues {
  name: string;
  email: string;
  phone: string;
  category: CustomerCategory;
  emailSubscribed: boolean;
  smsSubscribed: boolean;
}

const statusTone = { active: 'ok', unsubscribed: 'neutral', bounced: 'alert' } as const;

function AddSubscriberModal({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [serverError, setServerError] = useState<string | undefined>();
  const form = useForm<SubscriberValues>({
    resolver: zodResolver<SubscriberValues>(subscriberCreateSchema),
    defaultValues: { name: '', email: '', phone: '', category: 'general', emailSubscribed: true, smsSubscribed: false },
  });
  const add = useMutation({
    mutationFn: ({ phone, ...values }: SubscriberValues) => addSubscriber({ ...values, ...(phone ? { phone } : {}) }),
    onSuccess: (subscriber) => {
      client.setQueryData<Subscriber[]>(marketingKeys.subscribers, (list) => [subscriber, ...(list ?? [])]);
      void client.invalidateQueries({ queryKey: marketingKeys.stats });
      toast.success(`${subscriber.name} subscribed`);
      onClose();
    },
    onError: (error) => {
      // §8: the server's error text (a duplicate email, SMS without a phone...), else the spec's words.
      setServerError(
        error instanceof AdminApiError && error.status > 0 ? error.message : marketingMessages.addSubscriberFailed,
      );
    },
  });
  const { errors } = form.formState;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Subscriber"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="add-subscriber" loading={add.isPending} loadingText="Adding...">
            Add Subscriber
          </Button>
        </>
      }
    >
      <form
        id="add-subscriber"
        className="grid gap-4"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setServerError(undefined);
          add.mutate(values);
        })}
      >
        <Field label="Name" required error={errors.name?.message}>
          <Input {...form.register('name')} autoComplete="off" />
        </Field>
        <Field label="Email" required error={errors.email?.message}>
          <Input {...form.register('email')} type="email" autoComplete="off" />
        </Field>
        <Field label="Phone" error={errors.phone?.message} hint="Optional; needed for SMS">
          <Input {...form.register('phone')} type="tel" autoComplete="off" />
        </Field>
        <Field label="Category" required error={errors.category?.message}>
          <Select {...form.register('category')}>
            {customerCategories.map((c) => (
              <option key={c} value={c}>
                {customerCategory.labels[c]}
              </option>
            ))}
          </Select>
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-semibold text-khaki-100">Subscriptions</legend>
          <Checkbox label="Subscribe to emails" {...form.register('emailSubscribed')} />
          <Checkbox label="Subscribe to SMS" hint="Needs a phone number" {...form.register('smsSubscribed')} />
        </fieldset>
        {serverError ? (
          <p role="alert" className="text-sm text-alert-400">
            {serverError}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

export function SubscribersTab() {
  const client = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Subscriber | undefined>();
  const subscribers = useQuery({
    queryKey: marketingKeys.subscribers,
    queryFn: ({ signal }) => fetchSubscribers(signal),
  });
  const replace = (saved: Subscriber) =>
    client.setQueryData<Subscriber[]>(marketingKeys.subscribers, (list) =>
      (list ?? []).map((s) => (s.id === saved.id ? saved : s)),
    );

  const toggle = useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: SubscriberPatch }) => patchSubscriber(id, patch),
    onSuccess: (saved) => {
      replace(saved);
      void client.invalidateQueries({ queryKey: marketingKeys.stats });
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: (subscriber: Subscriber) => removeSubscriber(subscriber.id),
    onSuccess: (_, subscriber) => {
      client.setQueryData<Subscriber[]>(marketingKeys.subscribers, (list) =>
        (list ?? []).filter((s) => s.id !== subscriber.id),
      );
      void client.invalidateQueries({ queryKey: marketingKeys.stats });
      toast.success(`${subscriber.name} removed`);
      setRemoving(undefined);
    },
    onError: (error) => toast.error(error.message),
  });
  const busyId = toggle.isPending ? toggle.variables?.id : undefined;

  return (
    <section aria-labelledby="subscribers-heading" className="flex flex-col gap-4" data-testid="subscribers-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="subscribers-heading" className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">
          Subscribers
        </h2>
        <Button onClick={() => setAdding(true)}>
          <UserPlus aria-hidden="true" className="size-4" /> Add Subscriber
        </Button>
      </div>
      <QueryState
        query={subscribers}
        what="subscribers"
        skeletonClass="h-40"
        isEmpty={(list) => list.length === 0}
        empty={
          <div className="rounded-lg border border-dashed border-olive-600 p-8 text-center text-khaki-300">
            <p>No subscribers yet. Customers who tick subscribe on a quote request appear here.</p>
            <Button className="mt-3" variant="secondary" onClick={() => setAdding(true)}>
              Add Subscriber
            </Button>
          </div>
        }
      >
        {(list) => (
          <DataTable
            look="raised"
            caption="Subscribers with their email and SMS subscriptions"
            columns={[
              'Subscriber',
              'Category',
              'Status',
              { label: 'Opens', align: 'right' },
              { label: 'Orders', align: 'right' },
              'Since',
              'Email',
              'SMS',
              { label: 'Actions', hidden: true },
            ]}
          >
            {list.map((s) => (
              <tr key={s.id} data-testid="subscriber-row" data-email={s.email}>
                <Cell>
                  <span className="font-semibold text-khaki-50">{s.name}</span>
                  <span className="block break-all text-xs text-khaki-300">{s.email}</span>
                  {s.phone ? <span className="block text-xs text-khaki-300">{s.phone}</span> : null}
                </Cell>
                <Cell className="text-khaki-100">{customerCategory.labels[s.category]}</Cell>
                <Cell>
                  <Badge tone={statusTone[s.status]}>{s.status}</Badge>
                </Cell>
                <Cell align="right" className="font-mono">
                  {s.emailOpens.toLocaleString('en-US')}
                </Cell>
                <Cell align="right" className="font-mono">
                  {s.totalOrders.toLocaleString('en-US')}
                </Cell>
                <Cell className="whitespace-nowrap text-khaki-200">{formatDate(s.subscribedDate)}</Cell>
                <Cell>
                  <Toggle
                    checked={s.emailSubscribed}
                    label={`Email for ${s.name}`}
                    disabled={busyId === s.id}
                    onChange={(on) => toggle.mutate({ id: s.id, patch: { emailSubscribed: on } })}
                  />
                </Cell>
                <Cell>
                  {/* SMS needs a phone: the service refuses it otherwise, so the switch is off and disabled. */}
                  <Toggle
                    checked={s.smsSubscribed}
                    label={s.phone ? `SMS for ${s.name}` : `SMS for ${s.name} (no phone number)`}
                    disabled={busyId === s.id || (!s.phone && !s.smsSubscribed)}
                    onChange={(on) => toggle.mutate({ id: s.id, patch: { smsSubscribed: on } })}
                  />
                </Cell>
                <Cell align="right">
                  <Button variant="ghost" size="sm" onClick={() => setRemoving(s)} aria-label={`Remove ${s.name}`}>
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </Cell>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryState>
      {adding ? <AddSubscriberModal onClose={() => setAdding(false)} /> : null}
      {removing ? (
        <ConfirmModal
          title="Remove Subscriber"
          description={`Remove ${removing.name} (${removing.email})? They receive no more campaigns or SMS.`}
          confirmLabel="Remove"
          busyText="Removing..."
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing)}
          onClose={() => setRemoving(undefined)}
        />
      ) : null}
    </section>
  );
}
