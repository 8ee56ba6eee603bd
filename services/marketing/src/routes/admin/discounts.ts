// Discount Codes tab (back office part B §2.4, §5, §7): list, create, active toggle, delete. The gateway
// lets /api/marketing/** through only with an admin session and signs the admin into its token.
import {
  discountCreateSchema,
  discountDeleteResponseSchema,
  discountListResponseSchema,
  discountMessages,
  discountResponseSchema,
  discountToggleSchema,
  marketingDiscountPaths,
} from '@shop/contracts';
import { adminActor, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { endDateOf } from '../../domain/discount-eligibility.js';
import { discountView, type DiscountDoc, type DiscountModels } from '../../models/discount.js';
import { errors, idParams, isDuplicateKey } from './common.js';

export function registerAdminDiscountRoutes(app: ServiceApp, ctx: ServiceContext<DiscountModels>) {
  const { Discount } = ctx.models;
  const one = `${marketingDiscountPaths.list}/:id`;

  app.get(
    marketingDiscountPaths.list,
    {
      schema: {
        tags: ['marketing discounts'],
        summary: 'Every discount code, newest first (the tab and the Apply Discount picker)',
        response: { 200: discountListResponseSchema, ...errors },
      },
    },
    async () => {
      const discounts = await Discount.find().sort({ createdAt: -1, _id: -1 }).lean<DiscountDoc[]>();
      return { success: true as const, discounts: discounts.map(discountView) };
    },
  );

  app.post(
    marketingDiscountPaths.list,
    {
      schema: {
        tags: ['marketing discounts'],
        summary:
          'Create a discount code: active, used 0 times, starting now; the code is stored upper case and unique regardless of case',
        body: discountCreateSchema,
        response: { 201: discountResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const now = new Date();
      const endDate = endDateOf(body.endDate);
      let created: DiscountDoc;
      try {
        const doc = await Discount.create({
          code: body.code,
          description: body.description,
          category: body.category,
          type: body.type,
          value: body.value,
          isActive: true,
          startDate: now,
          endDate,
          maxUses: body.maxUses ?? null,
          usedCount: 0,
          minOrder: body.minOrder ?? null,
          createdBy: adminActor(request),
        });
        created = doc.toObject();
      } catch (err) {
        if (isDuplicateKey(err))
          throw conflict(discountMessages.codeTaken(body.code), [
            { field: 'code', message: discountMessages.codeTaken(body.code) },
          ]);
        throw err;
      }
      request.log.info(
        { discountId: created._id, code: created.code, admin: adminActor(request) },
        'discount code created',
      );
      return reply.status(201).send({ success: true as const, discount: discountView(created) });
    },
  );

  app.patch(
    one,
    {
      schema: {
        tags: ['marketing discounts'],
        summary: 'Turn a discount code on or off',
        params: idParams,
        body: discountToggleSchema,
        response: { 200: discountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const updated = await Discount.findByIdAndUpdate(
        request.params.id,
        { $set: { isActive: request.body.isActive } },
        { returnDocument: 'after' },
      ).lean<DiscountDoc>();
      if (!updated) throw notFound(discountMessages.notFound);
      request.log.info(
        { discountId: updated._id, isActive: updated.isActive, admin: adminActor(request) },
        'discount code toggled',
      );
      return { success: true as const, discount: discountView(updated) };
    },
  );

  app.delete(
    one,
    {
      schema: {
        tags: ['marketing discounts'],
        summary: 'Delete a discount code (orders keep the discount they already have)',
        params: idParams,
        response: { 200: discountDeleteResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { deletedCount } = await Discount.deleteOne({ _id: request.params.id });
      if (deletedCount === 0) throw notFound(discountMessages.notFound);
      request.log.info({ discountId: request.params.id, admin: adminActor(request) }, 'discount code deleted');
      return { success: true as const, deleted: request.params.id };
    },
  );
}
