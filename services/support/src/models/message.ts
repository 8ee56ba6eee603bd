// Support messages (admin §3): the visitor's message and its conversation (responses embedded: they are
// only ever read with their message), the admin's status and notes, and the respond-by deadline.
import { Schema, type InferSchemaType } from 'mongoose';
import { supportPriorities, supportStatuses } from '@shop/contracts';

const responseSchema = new Schema(
  {
    _id: { type: String, required: true },
    content: { type: String, required: true },
    isFromAdmin: { type: Boolean, required: true },
    authorName: { type: String, required: true },
    timestamp: { type: Date, required: true },
  },
  { _id: false },
);

export const supportMessageSchema = new Schema(
  {
    reference: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    orderNumber: { type: String, default: null },
    subject: { type: String, required: true },
    message: { type: String, required: true },
    priority: { type: String, enum: supportPriorities, required: true },
    status: { type: String, enum: supportStatuses, default: 'open' },
    adminNotes: { type: String, default: '' },
    responses: { type: [responseSchema], default: [] },
    submittedDate: { type: Date, required: true },
    lastUpdate: { type: Date, required: true },
    respondBy: { type: Date, required: true },
    /** When someone from the shop first answered (ends the overdue clock). */
    firstResponseAt: { type: Date, default: null },
  },
  { collection: 'support_messages' },
);
supportMessageSchema.index({ reference: 1 }, { unique: true });
// The inbox: newest first, filtered by status or priority; the overdue sweep reads status + respondBy.
supportMessageSchema.index({ submittedDate: -1 });
supportMessageSchema.index({ status: 1, submittedDate: -1 });
supportMessageSchema.index({ priority: 1, submittedDate: -1 });
supportMessageSchema.index({ status: 1, respondBy: 1 });

export type SupportMessageFields = InferSchemaType<typeof supportMessageSchema>;
