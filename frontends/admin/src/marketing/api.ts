// The back office's marketing calls (part B §7): campaigns, subscribers, SMS templates and stats, parsed
// with the contracts' schemas. One query key root, so a send reloads all marketing data (§4).
import {
  campaignListResponseSchema,
  campaignResponseSchema,
  campaignSendResponseSchema,
  marketingPaths,
  marketingStatsResponseSchema,
  smsOutboxResponseSchema,
  smsTemplateListResponseSchema,
  smsTemplateResponseSchema,
  subscriberListResponseSchema,
  subscriberResponseSchema,
  type CampaignCreate,
  type CampaignDraft,
  type SmsTemplateCreate,
  type SmsTemplatePatch,
  type SubscriberCreate,
  type SubscriberPatch,
} from '@shop/contracts';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { QueryClient } from '@tanstack/react-query';
import { adminFetch } from '../api.js';
import { formatPercent } from '../orders/format.js';
import { discountKeys } from './discounts/api.js';

export const marketingKeys = {
  all: ['marketing'] as const,
  campaigns: ['marketing', 'campaigns'] as const,
  subscribers: ['marketing', 'subscribers'] as const,
  sms: ['marketing', 'sms'] as const,
  smsOutbox: ['marketing', 'sms-outbox'] as const,
  stats: ['marketing', 'stats'] as const,
};

export const fetchCampaigns = async (signal?: AbortSignal) =>
  campaignListResponseSchema.parse(await adminFetch(marketingPaths.emails, { signal })).campaigns;
export const createCampaign = async (body: CampaignCreate) =>
  campaignResponseSchema.parse(await adminFetch(marketingPaths.emails, { method: 'POST', json: body })).campaign;
export const updateCampaign = async (id: string, body: CampaignDraft) =>
  campaignResponseSchema.parse(await adminFetch(marketingPaths.email(id), { method: 'PUT', json: body })).campaign;
export const sendCampaign = async (id: string) =>
  campaignSendResponseSchema.parse(await adminFetch(marketingPaths.sendEmail(id), { method: 'POST' })).campaign;

export const fetchSubscribers = async (signal?: AbortSignal) =>
  subscriberListResponseSchema.parse(await adminFetch(marketingPaths.subscribers, { signal })).subscribers;
export const addSubscriber = async (body: SubscriberCreate) =>
  subscriberResponseSchema.parse(await adminFetch(marketingPaths.subscribers, { method: 'POST', json: body }))
    .subscriber;
export const patchSubscriber = async (id: string, body: SubscriberPatch) =>
  subscriberResponseSchema.parse(await adminFetch(marketingPaths.subscriber(id), { method: 'PATCH', json: body }))
    .subscriber;
export const removeSubscriber = async (id: string) => adminFetch(marketingPaths.subscriber(id), { method: 'DELETE' });

export const fetchSmsTemplates = async (signal?: AbortSignal) =>
  smsTemplateListResponseSchema.parse(await adminFetch(marketingPaths.sms, { signal })).templates;
export const fetchSmsOutbox = async (signal?: AbortSignal) =>
  smsOutboxResponseSchema.parse(await adminFetch(marketingPaths.smsOutbox, { signal })).messages;
export const createSmsTemplate = async (body: SmsTemplateCreate) =>
  smsTemplateResponseSchema.parse(await adminFetch(marketingPaths.sms, { method: 'POST', json: body })).template;
export const patchSmsTemplate = async (id: string, body: SmsTemplatePatch) =>
  smsTemplateResponseSchema.parse(await adminFetch(marketingPaths.smsTemplate(id), { method: 'PATCH', json: body }))
    .template;
export const deleteSmsTemplate = async (id: string) => adminFetch(marketingPaths.smsTemplate(id), { method: 'DELETE' });

export const fetchStats = async (signal?: AbortSignal) =>
  marketingStatsResponseSchema.parse(await adminFetch(marketingPaths.stats, { signal })).stats;

/** react-hook-form checked with a contracts zod schema: the browser and the server say the same thing. */
export function zodResolver<V extends FieldValues>(schema: z.ZodType): Resolver<V> {
  return async (values) => {
    const parsed = schema.safeParse(values);
    if (parsed.success) return { values: parsed.data as V, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'root');
      errors[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors } as never;
  };
}

/** Marketing percentages have 1 decimal (§9). */
export const percent = formatPercent;

/** §4: sending reloads all marketing data: campaigns, subscribers, SMS, stats and the discount codes. */
export function reloadMarketing(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: marketingKeys.all }),
    client.invalidateQueries({ queryKey: discountKeys.all }),
  ]);
}
