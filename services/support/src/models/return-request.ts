// Return requests (storefront §3 return request, now sent): the customer's form, the photo records and
// the status history the back office moves along. Photo bytes live in `return_photos` (one document
// each, at most 10 MB: within MongoDB's 16 MB document limit, no GridFS needed).
import { Schema, type InferSchemaType } from 'mongoose';
import { returnConditions, returnReasons, returnStatuses } from '@shop/contracts';

const photoSchema = new Schema(
  {
    _id: { type: String, required: true },
    filename: { type: String, required: true },
    mimetype: { type: String, required: true },
    size: { type: Number, required: true },
  },
  { _id: false },
);
const historySchema = new Schema(
  {
    status: { type: String, enum: returnStatuses, required: true },
    at: { type: Date, required: true },
    by: { type: String, required: true },
    note: String,
  },
  { _id: false },
);

export const returnRequestSchema = new Schema(
  {
    reference: { type: String, required: true },
    orderNumber: { type: String, required: true },
    email: { type: String, required: true },
    customerName: { type: String, default: '' },
    reason: { type: String, enum: returnReasons, required: true },
    itemCondition: { type: String, enum: returnConditions, required: true },
    description: { type: String, required: true },
    photos: { type: [photoSchema], default: [] },
    status: { type: String, enum: returnStatuses, default: 'requested' },
    history: { type: [historySchema], default: [] },
    requestedAt: { type: Date, required: true },
    lastUpdate: { type: Date, required: true },
  },
  { collection: 'returns' },
);
returnRequestSchema.index({ reference: 1 }, { unique: true });
returnRequestSchema.index({ requestedAt: -1 });
returnRequestSchema.index({ status: 1, requestedAt: -1 });
returnRequestSchema.index({ orderNumber: 1 });

export const returnPhotoSchema = new Schema(
  {
    _id: { type: String, required: true },
    returnId: { type: String, required: true },
    filename: { type: String, required: true },
    mimetype: { type: String, required: true },
    size: { type: Number, required: true },
    data: { type: Buffer, required: true },
  },
  { collection: 'return_photos' },
);
returnPhotoSchema.index({ returnId: 1 });

export type ReturnRequestFields = InferSchemaType<typeof returnRequestSchema>;
