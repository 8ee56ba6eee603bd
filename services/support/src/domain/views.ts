// Stored documents -> the shapes of @shop/contracts (ISO dates, string ids, overdue worked out now).
import type { ReturnRecord, SupportMessage } from '@shop/contracts';
import { supportPaths } from '@shop/contracts';
import { isOverdue } from './summary.js';

type Lean<T> = T & { _id: { toString(): string } };

export function messageView(doc: Lean<Record<string, any>>, now: Date): SupportMessage {
  return {
    id: doc._id.toString(),
    reference: doc.reference,
    name: doc.name,
    email: doc.email,
    subject: doc.subject,
    message: doc.message,
    ...(doc.orderNumber ? { orderNumber: doc.orderNumber } : {}),
    status: doc.status,
    priority: doc.priority,
    submittedDate: doc.submittedDate.toISOString(),
    lastUpdate: doc.lastUpdate.toISOString(),
    adminNotes: doc.adminNotes ?? '',
    responses: (doc.responses ?? []).map((r: any) => ({ id: r._id, content: r.content, isFromAdmin: r.isFromAdmin, authorName: r.authorName, timestamp: r.timestamp.toISOString() })),
    respondBy: doc.respondBy.toISOString(),
    firstResponseAt: doc.firstResponseAt ? doc.firstResponseAt.toISOString() : null,
    overdue: isOverdue({ status: doc.status, respondBy: doc.respondBy, firstResponseAt: doc.firstResponseAt ?? null }, now),
  };
}

export function returnView(doc: Lean<Record<string, any>>): ReturnRecord {
  const id = doc._id.toString();
  return {
    id,
    reference: doc.reference,
    orderNumber: doc.orderNumber,
    email: doc.email,
    customerName: doc.customerName ?? '',
    reason: doc.reason,
    itemCondition: doc.itemCondition,
    description: doc.description,
    photos: (doc.photos ?? []).map((p: any) => ({ id: p._id, filename: p.filename, mimetype: p.mimetype, size: p.size, url: supportPaths.returnPhoto(id, p._id) })),
    status: doc.status,
    history: (doc.history ?? []).map((h: any) => ({ status: h.status, at: h.at.toISOString(), by: h.by, ...(h.note ? { note: h.note } : {}) })),
    requestedAt: doc.requestedAt.toISOString(),
    lastUpdate: doc.lastUpdate.toISOString(),
  };
}

/** A search box's text as a case-insensitive literal pattern (no regex from the visitor). */
export function literalPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

export const objectIdPattern = /^[0-9a-f]{24}$/i;
