// What marketing answers orders over NATS request/reply: redeem a code for an order, and give the use
// back. Idempotent per order: the redemption's _id is code id + order id, claimed before the use is
// taken, so a retried apply finds its own redemption and uses nothing more, and a repeated give-back
// finds nothing to give.
// maxUses holds under any concurrency: a use is taken only by one conditional update
// (usedCount < maxUses, then +1) on the code's document, which MongoDB applies atomically.
import {
  discountMessages,
  discountRedeemRequestSchema,
  discountRedeemSubject,
  discountReleaseRequestSchema,
  discountReleaseSubject,
  discountCents,
  type DiscountRedeemResult,
  type DiscountReleaseResult,
} from '@shop/contracts';
import { AppError, notFound, replyTo, type ServiceContext } from '@shop/service-kit';
import { redeemRefusal, usedUpRefusal, type Refusal } from '../domain/discount-eligibility.js';
import { isDuplicateKey } from '../routes/admin/common.js';
import {
  discountView,
  redemptionId,
  type DiscountDoc,
  type DiscountModels,
  type DiscountRedemptionDoc,
} from '../models/discount.js';

const staleClaimMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refused = (r: Refusal) => new AppError(r.status, r.code, r.message);

export function discountReplies(ctx: ServiceContext<DiscountModels>) {
  const { Discount, DiscountRedemption } = ctx.models;

  /** Takes one use when one is left; null when the code is used up (or was switched off meanwhile). */
  const takeUse = (id: string) =>
    Discount.findOneAndUpdate(
      { _id: id, isActive: true, $or: [{ maxUses: null }, { $expr: { $lt: ['$usedCount', '$maxUses'] } }] },
      { $inc: { usedCount: 1 } },
      { returnDocument: 'after' },
    ).lean<DiscountDoc>();

  /**
   * 'claimed': this request owns a new pending redemption; 'held': the order already holds the code.
   * A pending claim of another request is waited for; one older than staleClaimMs (its redeem died
   * half-way) is taken over.
   */
  async function claim(key: string, discount: DiscountDoc, orderId: string): Promise<'claimed' | 'held'> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      try {
        await DiscountRedemption.create({
          _id: key,
          discountId: discount._id,
          code: discount.code,
          orderId,
          state: 'pending',
          redeemedAt: new Date(),
        });
        return 'claimed';
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const other = await DiscountRedemption.findById(key).lean<DiscountRedemptionDoc>();
      if (!other) continue;
      if (other.state === 'redeemed') return 'held';
      if (Date.now() - new Date(other.redeemedAt).getTime() > staleClaimMs) {
        await DiscountRedemption.deleteOne({ _id: key, state: 'pending', redeemedAt: other.redeemedAt });
        continue;
      }
      await sleep(20);
    }
    throw new AppError(
      409,
      'DISCOUNT_BUSY',
      'This discount is being applied to this order right now. Please try again.',
    );
  }

  const giveUse = (id: string) => Discount.updateOne({ _id: id, usedCount: { $gt: 0 } }, { $inc: { usedCount: -1 } });

  return [
    replyTo(
      discountRedeemSubject,
      discountRedeemRequestSchema,
      async ({ orderId, code, customerCategory, orderAmountCents }, { log }): Promise<DiscountRedeemResult> => {
        const discount = await Discount.findOne({ code }).lean<DiscountDoc>();
        if (!discount) throw notFound(discountMessages.notFound);
        const key = redemptionId(discount._id, orderId);
        const answer = (d: DiscountDoc, newlyRedeemed: boolean): DiscountRedeemResult => ({
          discount: discountView(d),
          discountCents: discountCents(d.type, d.value, orderAmountCents),
          newlyRedeemed,
        });

        // Claim the (code, order) pair first; a retried apply finds the claim and uses nothing more.
        if ((await claim(key, discount, orderId)) === 'held') return answer(discount, false);
        const dropClaim = () => DiscountRedemption.deleteOne({ _id: key, state: 'pending' });

        const refusal = redeemRefusal(discount, { customerCategory, orderAmountCents, now: new Date() });
        if (refusal) {
          await dropClaim();
          throw refused(refusal);
        }
        const taken = await takeUse(discount._id);
        if (!taken) {
          await dropClaim();
          const current = await Discount.findById(discount._id).lean<DiscountDoc>();
          if (current && !current.isActive)
            throw refused({ status: 400, code: 'DISCOUNT_INACTIVE', message: discountMessages.inactive });
          throw refused(usedUpRefusal);
        }
        await DiscountRedemption.updateOne({ _id: key }, { $set: { state: 'redeemed', redeemedAt: new Date() } });
        log.info({ orderId, code, usedCount: taken.usedCount, maxUses: taken.maxUses }, 'discount code redeemed');
        return answer(taken, true);
      },
    ),

    replyTo(
      discountReleaseSubject,
      discountReleaseRequestSchema,
      async ({ orderId, code }, { log }): Promise<DiscountReleaseResult> => {
        const discount = await Discount.findOne({ code }, { _id: 1 }).lean<Pick<DiscountDoc, '_id'>>();
        // A deleted code has nothing left to give back to.
        if (!discount) return { released: false };
        const { deletedCount } = await DiscountRedemption.deleteOne({
          _id: redemptionId(discount._id, orderId),
          state: 'redeemed',
        });
        if (deletedCount === 0) return { released: false };
        await giveUse(discount._id);
        log.info({ orderId, code }, 'discount code use given back');
        return { released: true };
      },
    ),
  ];
}
