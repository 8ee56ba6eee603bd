// The orders service's part of a customer's data export (issue 16): every order placed with the address
// (or known to the customers service by id), as stored, and the AI designs those orders used.
import { privacyExportRequestSchema, privacyExportSubject, type PrivacyExportPart } from '@shop/contracts';
import { replyTo } from '@shop/service-kit';
import type { OrderModels } from '../models/order.js';

const plain = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

export function privacyExportReply(models: OrderModels) {
  return replyTo(
    privacyExportSubject('orders'),
    privacyExportRequestSchema,
    async ({ email, orderIds }): Promise<PrivacyExportPart> => {
      const orders = await models.Order.find({ $or: [{ emailKey: email.toLowerCase() }, { _id: { $in: orderIds } }] })
        .sort({ createdAt: -1 })
        .lean();
      const designIds = orders.map((o) => o.aiDesignId).filter((id): id is string => Boolean(id));
      const designs = designIds.length ? await models.Design.find({ _id: { $in: designIds } }).lean() : [];
      return { service: 'orders', collections: { orders: orders.map(plain), designs: designs.map(plain) } };
    },
  );
}
