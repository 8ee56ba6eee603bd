// The marketing service's events. A campaign send is published in batches: each batch names its
// recipients with their subscriber id and the delivery token that signs their open, click and
// unsubscribe links, so the email service queues one email per (campaign, subscriber) exactly once.
import { z } from 'zod';
import { campaignTypeSchema } from './catalog.js';

const isoDate = z.iso.datetime({ offset: true });

export const campaignSendRequestedData = z.object({
  campaignId: z.string().min(1),
  name: z.string(),
  type: campaignTypeSchema,
  subject: z.string().min(1),
  /** Plain text as the administrator typed it; the email service escapes it into the shop's layout. */
  content: z.string(),
  /** Position of this batch in the send (0, 1, ...). */
  batch: z.number().int().nonnegative(),
  recipients: z
    .array(
      z.object({
        subscriberId: z.string().min(1),
        email: z.email(),
        name: z.string(),
        /** Random, unguessable: the open image, click links and unsubscribe link of this email. */
        token: z.string().min(16),
      }),
    )
    .max(500),
  requestedAt: isoDate,
});
