// GET /api/marketing/stats: the overview's stat cards and the analytics tab (README: how each figure is
// computed). All from the service's own collections: campaign deliveries, SMS messages, discount codes,
// subscribers and the orders attributed to campaigns from order.paid.
import { marketingLimits, marketingPaths, marketingStatsResponseSchema, ratePercent } from '@shop/contracts';
import type { ServiceApp, ServiceContext } from '@shop/service-kit';
import { periodChange, periods } from '../../domain/attribution.js';
import type { CommunicationModels } from '../../models/index.js';
import { smsMessageView, type SmsMessageDoc } from '../../models/sms.js';
import { errors } from './common.js';

const day = 24 * 60 * 60_000;
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export function registerAdminStatsRoutes(app: ServiceApp, ctx: ServiceContext<CommunicationModels>) {
  const { Campaign, SmsMessage, Subscriber, AttributedOrder } = ctx.models;

  async function sumCents(from?: Date, to?: Date) {
    const match = from || to ? { paidAt: { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) } } : {};
    const [row] = await AttributedOrder.aggregate<{ total: number }>([
      { $match: match },
      { $group: { _id: null, total: { $sum: '$amountCents' } } },
    ]);
    return row?.total ?? 0;
  }

  app.get(
    marketingPaths.stats,
    {
      schema: {
        tags: ['marketing stats'],
        summary: 'Marketing stats: emails, SMS, discounts, rates, revenue from marketing',
        response: { 200: marketingStatsResponseSchema, ...errors },
      },
    },
    async () => {
      const now = new Date();
      const [campaignTotals] = await Campaign.aggregate<{ sent: number; opens: number }>([
        { $group: { _id: null, sent: { $sum: '$sent' }, opens: { $sum: '$opens' } } },
      ]);
      const [smsSent, smsFailed] = await Promise.all([
        SmsMessage.countDocuments({ status: 'sent' }),
        SmsMessage.countDocuments({ status: 'failed' }),
      ]);
      // The discount codes live beside us (models/discount.ts, the Discount Codes tab); read as stored.
      const discounts = ctx.connection.collection('discounts');
      const [activeDiscounts, usage] = await Promise.all([
        discounts.countDocuments({
          isActive: true,
          startDate: { $lte: now },
          $or: [{ endDate: null }, { endDate: { $gt: now } }],
        }),
        discounts.aggregate<{ used: number }>([{ $group: { _id: null, used: { $sum: '$usedCount' } } }]).toArray(),
      ]);
      const { currentStart, previousStart } = periods(now);
      const [revenueCents, currentCents, previousCents] = await Promise.all([
        sumCents(),
        sumCents(currentStart),
        sumCents(previousStart, currentStart),
      ]);

      // Growth: active subscribers at the end of each of the last 30 days (those who joined by then and
      // are still active; someone who left is not counted on any day, as we keep no history of leaving).
      const growthStart = new Date(now.getTime() - 29 * day);
      growthStart.setUTCHours(0, 0, 0, 0);
      const [before, joined] = await Promise.all([
        Subscriber.countDocuments({ status: 'active', createdAt: { $lt: growthStart } }),
        Subscriber.aggregate<{ _id: string; n: number }>([
          { $match: { status: 'active', createdAt: { $gte: growthStart } } },
          { $group: { _id: { $dateToString: { format: '%Y-%m-%d', date: '$createdAt' } }, n: { $sum: 1 } } },
        ]),
      ]);
      const perDay = new Map(joined.map((j) => [j._id, j.n]));
      let running = before;
      const subscriberGrowth = Array.from({ length: 30 }, (_, i) => {
        const date = dayKey(new Date(growthStart.getTime() + i * day));
        running += perDay.get(date) ?? 0;
        return { date, subscribers: running };
      });

      const recent = await SmsMessage.find({ status: { $in: ['sent', 'failed'] } })
        .sort({ createdAt: -1 })
        .limit(marketingLimits.recentCampaigns)
        .lean<SmsMessageDoc[]>();
      return {
        stats: {
          totalEmails: campaignTotals?.sent ?? 0,
          totalSMS: smsSent,
          activeDiscounts,
          emailOpenRate: ratePercent(campaignTotals?.opens ?? 0, campaignTotals?.sent ?? 0),
          smsDeliveryRate: ratePercent(smsSent, smsSent + smsFailed),
          discountUsage: usage[0]?.used ?? 0,
          revenueFromMarketing: revenueCents / 100,
          revenueChange: periodChange(currentCents, previousCents),
          activeSubscribers: running,
          subscriberGrowth,
          recentSms: recent.map(smsMessageView),
        },
      };
    },
  );
}
