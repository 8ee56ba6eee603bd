// Email Campaigns tab (part B §2.4, §4, §5, §8): the list with counts and rates, Create Campaign, Edit
// Campaign for drafts ('Failed to update email campaign' when it fails), and Send Now for drafts, which
// reloads all marketing data.
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Send } from 'lucide-react';
import {
  campaignDraftSchema,
  campaignTypeLabels,
  campaignTypes,
  marketingMessages,
  type Campaign,
  type CampaignDraft,
} from '@shop/contracts';
import { Button, Field, Input, Modal, Select, Textarea, toast } from '@shop/ui';
import {
  createCampaign,
  fetchCampaigns,
  marketingKeys,
  percent,
  reloadMarketing,
  sendCampaign,
  updateCampaign,
  zodResolver,
} from './api.js';
import { CampaignStatusBadge, QueryState } from './parts.js';

export function CampaignModal({ campaign, onClose }: { campaign?: Campaign; onClose: () => void }) {
  const client = useQueryClient();
  const form = useForm<CampaignDraft>({
    resolver: zodResolver<CampaignDraft>(campaignDraftSchema),
    defaultValues: campaign
      ? { name: campaign.name, type: campaign.type, subject: campaign.subject, content: campaign.content }
      : { name: '', type: 'newsletter', subject: '', content: '' },
  });
  const save = useMutation({
    mutationFn: (values: CampaignDraft) => (campaign ? updateCampaign(campaign.id, values) : createCampaign(values)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: marketingKeys.all });
      toast.success(campaign ? 'Campaign updated' : 'Campaign created');
      onClose();
    },
    onError: (error) => {
      if (campaign) toast.error(marketingMessages.updateCampaignFailed);
      else console.error('campaign creation failed', error);
    },
  });
  const { errors } = form.formState;
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={campaign ? 'Edit Campaign' : 'Create Campaign'}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="campaign-form" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : campaign ? 'Save Changes' : 'Create Campaign'}
          </Button>
        </>
      }
    >
      <form id="campaign-form" className="grid gap-4" onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
        <Field label="Campaign name" required error={errors.name?.message}>
          <Input {...form.register('name')} />
        </Field>
        <Field label="Type" required error={errors.type?.message}>
          <Select {...form.register('type')}>
            {campaignTypes.map((t) => (
              <option key={t} value={t}>
                {campaignTypeLabels[t]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Subject" required error={errors.subject?.message}>
          <Input {...form.register('subject')} />
        </Field>
        <Field
          label="Content"
          required
          hint="Plain text; links (https://...) are tracked. An unsubscribe link is added."
          error={errors.content?.message}
        >
          <Textarea rows={8} {...form.register('content')} />
        </Field>
      </form>
    </Modal>
  );
}

export function EmailsTab({ startCreating = false }: { startCreating?: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<Campaign | 'new' | undefined>(startCreating ? 'new' : undefined);
  const campaigns = useQuery({
    queryKey: marketingKeys.campaigns,
    queryFn: ({ signal }) => fetchCampaigns(signal),
    refetchInterval: (q) => (q.state.data?.some((c) => c.status === 'sending') ? 2000 : false),
  });
  const send = useMutation({
    mutationFn: sendCampaign,
    onSuccess: () => toast.success('Campaign is being sent'),
    onError: (error) => console.error('campaign send failed', error),
    onSettled: () => reloadMarketing(client),
  });
  return (
    <section aria-labelledby="emails-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="emails-heading" className="font-display text-xl font-bold uppercase tracking-wide text-khaki-50">
          Email Campaigns
        </h2>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden className="size-4" /> Create Campaign
        </Button>
      </div>
      <QueryState
        query={campaigns}
        what="campaigns"
        skeletonClass="h-40"
        isEmpty={(list) => list.length === 0}
        empty={<p className="text-sm text-khaki-300">No campaigns yet. Create one to reach your subscribers.</p>}
      >
        {(list) => (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-khaki-300">
                <tr>
                  <th className="p-2">Campaign</th>
                  <th className="p-2">Status</th>
                  <th className="p-2">Recipients</th>
                  <th className="p-2">Sent</th>
                  <th className="p-2">Opens</th>
                  <th className="p-2">Clicks</th>
                  <th className="p-2">Open rate</th>
                  <th className="p-2">Click rate</th>
                  <th className="p-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr key={c.id} className="border-t border-olive-700" data-testid="campaign-row">
                    <td className="p-2">
                      <div className="font-medium">{c.name}</div>
                      <div className="text-xs text-khaki-300">
                        {c.subject} · {campaignTypeLabels[c.type]}
                      </div>
                    </td>
                    <td className="p-2">
                      <CampaignStatusBadge status={c.status} />
                    </td>
                    <td className="p-2">{c.recipients}</td>
                    <td className="p-2">{c.sent}</td>
                    <td className="p-2">{c.opens}</td>
                    <td className="p-2">{c.clicks}</td>
                    <td className="p-2">{percent(c.openRate)}</td>
                    <td className="p-2">{percent(c.clickRate)}</td>
                    <td className="p-2 whitespace-nowrap">
                      {c.status === 'draft' && (
                        <>
                          <Button size="sm" variant="ghost" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                            <Pencil aria-hidden className="size-4" />
                          </Button>
                          <Button size="sm" onClick={() => send.mutate(c.id)} disabled={send.isPending}>
                            <Send aria-hidden className="size-4" /> Send Now
                          </Button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {editing && (
        <CampaignModal campaign={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
    </section>
  );
}
