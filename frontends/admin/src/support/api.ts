// The back office's support calls (admin §7: GET /api/support, PATCH /api/support/{id}, POST
// /api/support/{id}/responses, DELETE /api/support/{id}; returns: GET/PATCH /api/returns).
import {
  supportListSchema,
  supportMessageAnswerSchema,
  supportPaths,
  returnAnswerSchema,
  returnListSchema,
  type ReturnStatus,
  type SupportPriority,
  type SupportStatus,
} from '@shop/contracts';
import { adminFetch } from '../api.js';

export interface InboxFilters {
  search: string;
  status: SupportStatus | 'all';
  priority: SupportPriority | 'all';
  page: number;
}

export const supportKeys = {
  inbox: (f: InboxFilters) => ['support', 'inbox', f] as const,
  returns: (status: string) => ['support', 'returns', status] as const,
};

export async function fetchInbox(f: InboxFilters, signal?: AbortSignal) {
  const q = new URLSearchParams({ page: String(f.page), pageSize: '25', status: f.status, priority: f.priority });
  if (f.search.trim()) q.set('search', f.search.trim());
  return supportListSchema.parse(await adminFetch(`${supportPaths.messages}?${q}`, { signal }));
}

export async function updateMessage(id: string, body: { status?: SupportStatus; adminNotes?: string }) {
  return supportMessageAnswerSchema.parse(await adminFetch(supportPaths.message(id), { method: 'PATCH', json: body }))
    .supportMessage;
}

export async function replyToMessage(id: string, content: string) {
  return supportMessageAnswerSchema.parse(
    await adminFetch(supportPaths.responses(id), { method: 'POST', json: { content, isFromAdmin: true } }),
  ).supportMessage;
}

export async function deleteMessage(id: string) {
  await adminFetch(supportPaths.message(id), { method: 'DELETE' });
}

export async function fetchReturns(status: ReturnStatus | 'all', signal?: AbortSignal) {
  const q = new URLSearchParams({ pageSize: '50', status });
  return returnListSchema.parse(await adminFetch(`${supportPaths.returns}?${q}`, { signal }));
}

export async function moveReturn(id: string, status: ReturnStatus, note?: string) {
  return returnAnswerSchema.parse(
    await adminFetch(supportPaths.returnItem(id), { method: 'PATCH', json: { status, ...(note ? { note } : {}) } }),
  ).return;
}
