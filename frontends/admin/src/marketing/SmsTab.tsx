// SMS & Notifications tab (part B §2.4; the spec does not show creation, so this is what an administrator
// expects): the templates with their trigger, usage and an Active switch (one active template per trigger:
// the service switches the others of that trigger off), create, edit and delete (with confirmation), and
// the recent SMS activity: real sends from the marketing service (the spec's static sample made real).
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import {
  smsPlaceholders,
  smsTemplateCreateSchema,
  smsTriggerLabels,
  smsTriggers,
  type SmsTemplate,
  type SmsTemplateCreate,
} from '@shop/contracts';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  Cell,
  Checkbox,
  DataTable,
  Field,
  Input,
  Modal,
  Select,
  Textarea,
  toast,
} from '@shop/ui';
import { formatDateTime } from '../orders/format.js';
import {
  createSmsTemplate,
  deleteSmsTemplate,
  fetchSmsTemplates,
  fetchStats,
  marketingKeys,
  patchSmsTemplate,
  zodResolver,
} from './api.js';
import { ConfirmModal, QueryState, Toggle } from './parts.js';

type TemplateValues = { name: string; content: string; trigger: SmsTemplateCreate['trigger']; isActive: boolean };

function TemplateModal({ template, onClose }: { template?: SmsTemplate; onClose: () => void }) {
  const client = useQueryClient();
  const [serverError, setServerError] = useState<string | undefined>();
  const form = useForm<TemplateValues>({
    resolver: zodResolver<TemplateValues>(smsTemplateCreateSchema),
    defaultValues: template
      ? { name: template.name, content: template.content, trigger: template.trigger, isActive: template.isActive }
      : { name: '', content: '', trigger: 'quote_request_received', isActive: true },
  });
  const save = useMutation({
    mutationFn: (values: TemplateValues) =>
      template ? patchSmsTemplate(template.id, values) : createSmsTemplate(values),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: marketingKeys.sms });
      toast.success(template ? `SMS template ${saved.name} updated` : `SMS template ${saved.name} created`);
      onClose();
    },
    onError: (error) => {
      console.error('SMS template save failed', error);
      setServerError(error.message);
    },
  });
  const { errors } = form.formState;
  const length = useWatch({ control: form.control, name: 'content' })?.length ?? 0;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={template ? 'Edit SMS Template' : 'Create SMS Template'}
      size="lg"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="sms-template-form" loading={save.isPending} loadingText="Saving...">
            {template ? 'Save Changes' : 'Create Template'}
          </Button>
        </>
      }
    >
      <form
        id="sms-template-form"
        className="grid gap-4"
        noValidate
        onSubmit={form.handleSubmit((values) => {
          setServerError(undefined);
          save.mutate(values);
        })}
      >
        <Field label="Template name" required error={errors.name?.message}>
          <Input {...form.register('name')} autoComplete="off" />
        </Field>
        <Field
          label="Trigger"
          required
          error={errors.trigger?.message}
          hint="The shop event that sends this SMS to customers who opted into SMS"
        >
          <Select {...form.register('trigger')}>
            {smsTriggers.map((t) => (
              <option key={t} value={t}>
                {smsTriggerLabels[t]}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Message"
          required
          error={errors.content?.message}
          hint={`${length} characters. Placeholders: ${smsPlaceholders.join(' ')}`}
        >
          <Textarea rows={4} {...form.register('content')} />
        </Field>
        <Checkbox
          label="Active"
          hint="Activating a template switches off the other templates of its trigger"
          {...form.register('isActive')}
        />
        {serverError ? (
          <p role="alert" className="text-sm text-alert-400">
            {serverError}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}

function RecentSmsActivity() {
  const stats = useQuery({ queryKey: marketingKeys.stats, queryFn: ({ signal }) => fetchStats(signal) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent SMS Activity</CardTitle>
      </CardHeader>
      <CardBody>
        <QueryState
          query={stats}
          what="SMS activity"
          skeletonClass="h-20"
          isEmpty={(s) => s.recentSms.length === 0}
          empty={
            <p className="text-sm text-khaki-300">
              No SMS sent yet. Customers who opt into SMS get the active template of each event.
            </p>
          }
        >
          {(s) => (
            <ul className="divide-y divide-olive-700" data-testid="recent-sms">
              {s.recentSms.map((m) => (
                <li key={m.id} className="flex flex-col gap-1 py-2.5 text-sm">
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span>
                      <span className="font-semibold text-khaki-50">{m.templateName}</span>{' '}
                      <span className="text-khaki-300">to {m.to}</span>
                    </span>
                    <span className="flex items-center gap-2 text-xs text-khaki-300">
                      <Badge tone={m.status === 'sent' ? 'ok' : 'alert'}>{m.status}</Badge>
                      {formatDateTime(m.sentAt ?? m.createdAt)}
                    </span>
                  </span>
                  <span className="break-words text-khaki-200">{m.body}</span>
                  {m.error ? <span className="text-xs text-alert-400">{m.error}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardBody>
    </Card>
  );
}

export function SmsTab({ startCreating = false }: { startCreating?: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<SmsTemplate | 'new' | undefined>(startCreating ? 'new' : undefined);
  const [deleting, setDeleting] = useState<SmsTemplate | undefined>();
  const templates = useQuery({ queryKey: marketingKeys.sms, queryFn: ({ signal }) => fetchSmsTemplates(signal) });
  const activate = useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => patchSmsTemplate(id, { isActive }),
    // Activating one may switch another of its trigger off: the whole list is read again.
    onSuccess: () => client.invalidateQueries({ queryKey: marketingKeys.sms }),
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: (template: SmsTemplate) => deleteSmsTemplate(template.id),
    onSuccess: (_, template) => {
      toast.success(`SMS template ${template.name} deleted`);
      setDeleting(undefined);
      void client.invalidateQueries({ queryKey: marketingKeys.sms });
    },
    onError: (error) => toast.error(error.message),
  });

  return (
    <section aria-labelledby="sms-heading" className="flex flex-col gap-4" data-testid="sms-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sms-heading" className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">
          SMS &amp; Notifications
        </h2>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" className="size-4" /> Create SMS Template
        </Button>
      </div>
      <QueryState
        query={templates}
        what="SMS templates"
        isEmpty={(list) => list.length === 0}
        empty={
          <div className="rounded-lg border border-dashed border-olive-600 p-8 text-center text-khaki-300">
            <p>No SMS templates yet. A template sends an SMS when its shop event happens.</p>
            <Button className="mt-3" variant="secondary" onClick={() => setEditing('new')}>
              Create SMS Template
            </Button>
          </div>
        }
      >
        {(list) => (
          <DataTable
            look="raised"
            columns={[
              'Template',
              'Trigger',
              { label: 'Sent', align: 'right' },
              'Active',
              { label: 'Actions', hidden: true },
            ]}
          >
            {list.map((t) => (
              <tr key={t.id} data-testid="sms-template-row">
                <Cell>
                  <span className="font-semibold text-khaki-50">{t.name}</span>
                  <span className="block max-w-xl break-words text-xs text-khaki-300">{t.content}</span>
                </Cell>
                <Cell className="text-khaki-100">{smsTriggerLabels[t.trigger]}</Cell>
                <Cell align="right" className="font-mono text-khaki-100">
                  {t.usageCount.toLocaleString('en-US')}
                </Cell>
                <Cell>
                  <Toggle
                    checked={t.isActive}
                    label={`${t.name} active`}
                    disabled={activate.isPending}
                    onChange={(isActive) => activate.mutate({ id: t.id, isActive })}
                  />
                </Cell>
                <Cell align="right" className="whitespace-nowrap">
                  <Button variant="ghost" size="sm" onClick={() => setEditing(t)} aria-label={`Edit ${t.name}`}>
                    <Pencil aria-hidden="true" className="size-4" />
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`}>
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                </Cell>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryState>
      <RecentSmsActivity />
      {editing ? (
        <TemplateModal template={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      ) : null}
      {deleting ? (
        <ConfirmModal
          title="Delete SMS Template"
          description={`Delete the template ${deleting.name}? Its event sends no SMS until another template of it is active.`}
          confirmLabel="Delete"
          busyText="Deleting..."
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
