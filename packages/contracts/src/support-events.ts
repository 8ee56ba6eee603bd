// Data of the support service's events (NATS subjects `support.*`, stream SUPPORT). The email service
// turns each into the customer's email and, for new messages and returns, the team's notice.
import { z } from 'zod';
import { returnConditions, returnReasons, supportPrioritySchema } from './catalog.js';

const isoDate = z.iso.datetime({ offset: true });

/** Why an item goes back (storefront §3 return request; the values are in catalog.ts). */
export const returnReasonSchema = z.enum(returnReasons, {
  error: `reason must be one of: ${returnReasons.join(', ')}`,
});
export type ReturnReason = z.infer<typeof returnReasonSchema>;
export const returnReasonLabels: Record<ReturnReason, string> = {
  quality: 'Quality issue',
  wrong_item: 'Wrong item received',
  size_issue: 'Size issue',
  design_error: 'Design error',
  damaged: 'Damaged in shipping',
  not_as_described: 'Not as described',
};

/** The state the item is in (storefront §3 return request). */
export const returnConditionSchema = z.enum(returnConditions, {
  error: `itemCondition must be one of: ${returnConditions.join(', ')}`,
});
export type ReturnCondition = z.infer<typeof returnConditionSchema>;
export const returnConditionLabels: Record<ReturnCondition, string> = {
  new_unopened: 'New / unopened',
  opened_unused: 'Opened but unused',
  quality_issue: 'Has a quality issue',
  wrong_item: 'Wrong item',
  shipping_damage: 'Damaged in shipping',
};

/**
 * A return's life in the back office: requested -> approved (the prepaid label is sent) -> received ->
 * refunded or replaced; rejected from any open step. The spec's form never sent; ours does (issue 12).
 */
export const returnStatuses = ['requested', 'approved', 'received', 'refunded', 'replaced', 'rejected'] as const;
export const returnStatusSchema = z.enum(returnStatuses, {
  error: `status must be one of: ${returnStatuses.join(', ')}`,
});
export type ReturnStatus = z.infer<typeof returnStatusSchema>;
export const returnStatusLabels: Record<ReturnStatus, string> = {
  requested: 'Requested',
  approved: 'Approved (label sent)',
  received: 'Received',
  refunded: 'Refunded',
  replaced: 'Replaced',
  rejected: 'Rejected',
};
/** The statuses a return may move to from each status (the last three are final). */
export const returnStatusMoves: Record<ReturnStatus, readonly ReturnStatus[]> = {
  requested: ['approved', 'rejected'],
  approved: ['received', 'rejected'],
  received: ['refunded', 'replaced', 'rejected'],
  refunded: [],
  replaced: [],
  rejected: [],
};

export const supportMessageCreatedData = z.object({
  messageId: z.string().min(1),
  name: z.string(),
  email: z.email(),
  orderNumber: z.string().optional(),
  subject: z.string(),
  message: z.string(),
  priority: supportPrioritySchema,
  submittedDate: isoDate,
  /** The MSG- reference the visitor was shown (optional: older events had none). */
  reference: z.string().optional(),
  /** The deadline of the response promise (4 hours in business hours, 24 hours on weekends). */
  respondBy: isoDate.optional(),
});

export const supportRepliedData = z.object({
  messageId: z.string().min(1),
  responseId: z.string().min(1),
  name: z.string(),
  email: z.email(),
  subject: z.string(),
  content: z.string(),
  authorName: z.string(),
  repliedAt: isoDate,
  reference: z.string().optional(),
});

export const returnRequestedData = z.object({
  returnId: z.string().min(1),
  reference: z.string().min(1),
  orderNumber: z.string().min(1),
  email: z.email(),
  customerName: z.string(),
  reason: returnReasonSchema,
  itemCondition: returnConditionSchema,
  description: z.string(),
  photoCount: z.number().int().min(0),
  requestedAt: isoDate,
});

export const returnStatusChangedData = z.object({
  returnId: z.string().min(1),
  reference: z.string().min(1),
  orderNumber: z.string().min(1),
  email: z.email(),
  customerName: z.string(),
  previousStatus: returnStatusSchema,
  status: returnStatusSchema,
  /** The note the team wrote for the customer, if any (it goes into the email). */
  note: z.string().optional(),
  changedBy: z.string(),
  changedAt: isoDate,
});
