// The email service's part of a customer's data export (issue 16): every email sent (or waiting) to the
// customer's address, and the shop's notices about their orders (or made by the same event), with subject, text body, template,
// status and dates (the HTML body repeats the text and would overflow one NATS reply for a long history).
import {
  privacyExportRequestSchema,
  privacyExportSubject,
  sameEmailPattern,
  type PrivacyExportPart,
} from '@shop/contracts';
import { replyTo } from '@shop/service-kit';
import type { EmailModels } from '../models/index.js';

const plain = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

export function privacyExportReply(models: EmailModels) {
  return replyTo(
    privacyExportSubject('email'),
    privacyExportRequestSchema,
    async ({ email, orderIds, orderNumbers }): Promise<PrivacyExportPart> => {
      const events = (
        await models.Email.distinct('sourceEventId', {
          to: sameEmailPattern(email),
          sourceEventId: { $ne: null },
        })
      ).map(String);
      const emails = await models.Email.find(
        {
          $or: [
            { to: sameEmailPattern(email) },
            { orderId: { $in: orderIds } },
            { orderNumber: { $in: orderNumbers } },
            { sourceEventId: { $in: events } },
          ],
        },
        { html: 0, headers: 0, lockedUntil: 0, dedupeKey: 0 },
      )
        .sort({ createdAt: -1 })
        .lean();
      return { service: 'email', collections: { emails: emails.map(plain) } };
    },
  );
}
