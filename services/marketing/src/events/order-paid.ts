// order.paid: the payment_received SMS, and the revenue attribution of the README's
// revenueFromMarketing (a payment whose customer was delivered a campaign email in the 30 days before).
import { consumeEvent } from '@shop/service-kit';
import { attributionWindowStart } from '../domain/attribution.js';
import type { DeliveryDoc } from '../models/campaign.js';
import type { CommunicationModels } from '../models/index.js';
import { queueTriggeredSms } from '../sms/queue-sms.js';

export function orderPaidConsumer(models: CommunicationModels, smsQueued: () => void) {
  return consumeEvent('order.paid', async (event, { session, log }) => {
    const paid = event.data;
    const email = paid.email.toLowerCase();
    const paidAt = new Date(paid.paidAt);
    const lastCampaign = await models.CampaignDelivery.findOne(
      { email, status: 'sent', sentAt: { $gte: attributionWindowStart(paidAt), $lte: paidAt } },
      { campaignId: 1 },
    )
      .sort({ sentAt: -1 })
      .session(session)
      .lean<Pick<DeliveryDoc, 'campaignId'>>();
    if (lastCampaign && !(await models.AttributedOrder.exists({ _id: paid.orderId }).session(session))) {
      await models.AttributedOrder.create(
        [
          {
            _id: paid.orderId,
            orderNumber: paid.orderNumber,
            email,
            amountCents: Math.round(paid.amount * 100),
            paidAt,
            campaignId: lastCampaign.campaignId,
          },
        ],
        { session },
      );
      log.info(
        { orderNumber: paid.orderNumber, campaignId: lastCampaign.campaignId },
        'payment attributed to a campaign',
      );
    }
    const queued = await queueTriggeredSms(models, session, log, {
      eventId: event.id,
      trigger: 'payment_received',
      email,
      values: { name: paid.customerName, orderNumber: paid.orderNumber, amount: paid.amount },
    });
    if (queued) smsQueued();
  });
}
