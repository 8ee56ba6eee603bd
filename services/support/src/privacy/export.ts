// The support service's part of a customer's data export (issue 16): their messages with the
// conversation, their return requests (photo files listed by name, type and size: the bytes stay in
// `return_photos`, too large for one reply), and support's copy of their orders.
import {
  privacyExportRequestSchema,
  privacyExportSubject,
  sameEmailPattern,
  type PrivacyExportPart,
} from '@shop/contracts';
import { replyTo } from '@shop/service-kit';
import type { SupportModels } from '../models/index.js';

const plain = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

export function privacyExportReply(models: SupportModels) {
  return replyTo(
    privacyExportSubject('support'),
    privacyExportRequestSchema,
    async ({ email, orderNumbers }): Promise<PrivacyExportPart> => {
      const byEmail = { email: sameEmailPattern(email) };
      const mine = { $or: [byEmail, { orderNumber: { $in: orderNumbers } }] };
      const [messages, returns, knownOrders] = await Promise.all([
        models.SupportMessage.find(byEmail).sort({ submittedDate: -1 }).lean(),
        models.ReturnRequest.find(mine).sort({ requestedAt: -1 }).lean(),
        models.KnownOrder.find(mine).lean(),
      ]);
      return {
        service: 'support',
        collections: {
          support_messages: messages.map(plain),
          returns: returns.map(plain),
          known_orders: knownOrders.map(plain),
        },
      };
    },
  );
}
