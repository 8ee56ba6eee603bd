// The support desk's calls (storefront §7 POST /api/support; returns: POST /api/returns, multipart, which
// the spec's form never sent and ours does).
import {
  supportMessageCreatedSchema,
  supportPaths,
  returnCreatedSchema,
  type SupportMessageRequest,
} from '@shop/contracts';
import { postJson, request } from './http.js';

export type SendResult = { ok: true; reference: string } | { ok: false; error: string };

export async function sendSupportMessage(body: SupportMessageRequest): Promise<SendResult> {
  const result = await postJson<unknown>(supportPaths.messages, body);
  const parsed = supportMessageCreatedSchema.safeParse(result.data);
  // Storefront §8: non-OK, success false, or a network failure are all one failure for the visitor.
  if (!result.ok || !parsed.success) return { ok: false, error: result.error ?? 'Unexpected answer' };
  return { ok: true, reference: parsed.data.reference };
}

export interface ReturnForm {
  orderNumber: string;
  email: string;
  reason: string;
  itemCondition: string;
  description: string;
  photos: File[];
}

export async function sendReturn(form: ReturnForm): Promise<SendResult> {
  const body = new FormData();
  for (const key of ['orderNumber', 'email', 'reason', 'itemCondition', 'description'] as const)
    body.append(key, form[key]);
  for (const photo of form.photos) body.append('photos', photo, photo.name);
  const result = await request<unknown>(supportPaths.returns, { method: 'POST', body });
  const parsed = returnCreatedSchema.safeParse(result.data);
  if (!result.ok || !parsed.success) return { ok: false, error: result.error ?? 'Unexpected answer' };
  return { ok: true, reference: parsed.data.reference };
}
