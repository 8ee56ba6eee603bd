// Stored documents -> the shapes of @shop/contracts (ISO dates, string ids, overdue worked out now).
import type { ReturnRecord, SupportMessage } from '@shop/contracts';
import { supportPaths } from '@shop/contracts';
import type { ReturnRequestFields } from '../models/return-request.js';
import type { SupportMessageFields } from '../models/message.js';
import { isOverdue } from './summary.js';

type Lean<T> = T & { _id: { toString(): string } };

export function messageView(doc: Lean<SupportMessageFields>, now: Date): SupportMessage {
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
    responses: (doc.responses ?? []).map((r) => ({
      id: r._id,
      content: r.content,
      isFromAdmin: r.isFromAdmin,
      authorName: r.authorName,
      timestamp: r.timestamp.toISOString(),
    })),
    respondBy: doc.respondBy.toISOString(),
    firstResponseAt: doc.firstResponseAt ? doc.firstResponseAt.toISOString() : null,
    overdue: isOverdue(
      { status: doc.status, respondBy: doc.respondBy, firstResponseAt: doc.firstResponseAt ?? null },
      now,
    ),
  };
}

export function returnView(doc: Lean<ReturnRequestFields>): ReturnRecord {
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
    photos: (doc.photos ?? []).map((p) => ({
      id: p._id,
      filename: p.filename,
      mimetype: p.mimetype,
      size: p.size,
      url: supportPaths.returnPhoto(id, p._id),
    })),
    status: doc.status,
    history: (doc.history ?? []).map((h) => ({
      status: h.status,
      at: h.at.toISOString(),
      by: h.by,
      ...(h.note ? { note: h.note } : {}),
    })),
    requestedAt: doc.requestedAt.toISOString(),
    lastUpdate: doc.lastUpdate.toISOString(),
  };
}

/** A search box's text as a case-insensitive literal pattern (no regex from the visitor). */
export function literalPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

export const objectIdPattern = /^[0-9a-f]{24}$/i;
