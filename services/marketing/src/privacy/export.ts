// The marketing service's part of a customer's data export (issue 16): the subscriber record, the
// campaign emails delivered to them (with opens and clicks), the orders attributed to a campaign, and
// the SMS sent to their numbers.
import {
  privacyExportRequestSchema,
  privacyExportSubject,
  sameEmailPattern,
  type PrivacyExportPart,
} from '@shop/contracts';
import { replyTo } from '@shop/service-kit';
import { e164 } from '../domain/sms-render.js';
import type { CommunicationModels } from '../models/index.js';

const plain = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

export function privacyExportReply(models: CommunicationModels) {
  return replyTo(
    privacyExportSubject('marketing'),
    privacyExportRequestSchema,
    async ({ email, phones }): Promise<PrivacyExportPart> => {
      const subscriber = await models.Subscriber.findOne({ email: email.toLowerCase() }).lean();
      const numbers = [
        ...new Set([...phones, subscriber?.phone ?? ''].map((p) => e164(p)).filter((p): p is string => Boolean(p))),
      ];
      const [deliveries, attributed, sms] = await Promise.all([
        // The token signs the tracking links: the shop's secret, not the customer's data.
        models.CampaignDelivery.find({ email: sameEmailPattern(email) }, { token: 0 })
          .sort({ queuedAt: -1 })
          .lean(),
        models.AttributedOrder.find({ email: sameEmailPattern(email) })
          .sort({ paidAt: -1 })
          .lean(),
        numbers.length
          ? models.SmsMessage.find({ to: { $in: numbers } })
              .sort({ createdAt: -1 })
              .lean()
          : Promise.resolve([]),
      ]);
      return {
        service: 'marketing',
        collections: {
          subscribers: subscriber ? [plain(subscriber)] : [],
          campaign_deliveries: deliveries.map(plain),
          attributed_orders: attributed.map(plain),
          sms_messages: sms.map(plain),
        },
      };
    },
  );
}
