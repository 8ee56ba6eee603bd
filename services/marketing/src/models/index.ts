// The campaign, subscriber and SMS collections (the discount codes have their own models in discount.ts).
import type { Connection } from 'mongoose';
import { attributedOrderModels } from './attributed-order.js';
import { campaignModels } from './campaign.js';
import { smsModels } from './sms.js';
import { subscriberModels } from './subscriber.js';

export function communicationModels(connection: Connection) {
  return {
    ...subscriberModels(connection),
    ...campaignModels(connection),
    ...smsModels(connection),
    ...attributedOrderModels(connection),
  };
}
export type CommunicationModels = ReturnType<typeof communicationModels>;
