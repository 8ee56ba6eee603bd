// Back-office order management (admin part A §2 dashboard, order details, order modals) at the spec's
// call table (§7): GET /api/orders, PUT /api/orders/:id/status, DELETE /api/orders/:id, GET and PUT
// /api/orders/:id/details, POST .../send-email, .../generate-quote, PUT .../tracking; the rest under the
// same resource (.../info-request, /api/orders/bulk/...). The gateway opens these only to a signed-in
// admin (the storefront's calls on the same resource differ by method or path) and signs the admin
// into its token; `adminActor` (the admin's email) goes into status history and notes.
// Changes others must hear about (status, quote, info request, email) are written with their event in
// one transaction (outbox); the email service turns the events into emails.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ClientSession } from 'mongoose';
import { z } from 'zod';
import {
  adminBulkDeleteSchema,
  adminBulkResultSchema,
  adminBulkStatusSchema,
  adminDeleteResponseSchema,
  adminEmailQueuedResponseSchema,
  adminInfoRequestSchema,
  adminOrderEditSchema,
  adminOrderListQuerySchema,
  adminOrderListResponseSchema,
  adminOrderMessages,
  adminOrderResponseSchema,
  adminQuoteSchema,
  adminSendEmailSchema,
  adminStatusChangeSchema,
  adminTrackingUpdateSchema,
  formatMoney,
  infoRequestSubject,
  isCustomerNotifiedStatus,
  orderPaymentPath,
  orderStatusLabels,
  orderStatuses,
  ordersResource,
  quoteValidDays,
  taxRateResultSchema,
  taxRateSubject,
  type TaxRateResult,
  type AdminStatusCounts,
  type EmailHistoryType,
  type OrderStatus,
} from '@shop/contracts';
import { adminActor, notFound, serviceUnavailable, type ServiceContext } from '@shop/service-kit';
import {
  adminDetail,
  adminRow,
  baseFilter,
  emailHistoryView,
  listFilter,
  listSort,
  orderTotal,
  orderTotalExpression,
  round2,
  summaryOf,
  type StatusGroup,
} from '../../domain/admin-orders.js';
import { quoteFigures, taxPlaceOf } from '../../domain/payment.js';
import { discountOn } from '../../domain/discount.js';
import { statusChangedData } from '../../events/status-changed.js';
import type { EmailHistoryEntry, OrderDoc, OrderModels } from '../../models/order.js';
import type { OrdersApp } from '../../app.js';
import { failureResponse } from '../respond.js';

const idParams = z.object({ id: z.string().min(1).max(64) });
const errors = { '4xx': failureResponse, '5xx': failureResponse };

/** Apply Quote when the payments service (the tax table) does not answer: nothing is stored. */
export const taxUnavailableMessage = 'Tax rates are unavailable right now. Please try again in a moment.';

const previewOf = (text: string) => (text.length > 300 ? `${text.slice(0, 297)}...` : text);

export function queuedEntry(
  order: OrderDoc,
  subject: string,
  message: string,
  type: EmailHistoryType,
  now: Date,
): EmailHistoryEntry {
  return {
    id: randomUUID(),
    subject,
    to: order.email,
    type,
    preview: previewOf(message),
    status: 'queued',
    timestamp: now,
  };
}

export function registerAdminOrderRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  const { Order } = ctx.models;
  const base = ordersResource;

  /** The quote's tax rate from payments; a 503 the admin can act on when payments does not answer. */
  async function taxRateOf(order: OrderDoc, log: FastifyBaseLogger): Promise<TaxRateResult> {
    const request = { ...taxPlaceOf(order), taxExempt: order.taxExempt };
    try {
      return await ctx.bus.request(taxRateSubject, request, { schema: taxRateResultSchema });
    } catch (err) {
      log.warn({ err, orderId: order._id, ...request }, 'tax rate not available: quote not sent');
      throw serviceUnavailable(taxUnavailableMessage);
    }
  }

  async function load(id: string, session: ClientSession | null = null): Promise<OrderDoc> {
    const order = await Order.findById(id).session(session).lean<OrderDoc>();
    if (!order) throw notFound(adminOrderMessages.orderNotFound);
    return order;
  }

  /** Orders and total value per status over a filter: one `$group`, the source of tab counts and cards. */
  function statusGroups(filter: Record<string, unknown>) {
    return Order.aggregate<StatusGroup>([
      { $match: filter },
      { $group: { _id: '$status', n: { $sum: 1 }, total: { $sum: orderTotalExpression } } },
    ]);
  }

  /** Tab counts; an unknown status is counted (and shown) as pending (§4). */
  function countsOf(groups: { _id: string; n: number }[]): AdminStatusCounts {
    const counts = { all: 0, ...Object.fromEntries(orderStatuses.map((s) => [s, 0])) } as AdminStatusCounts;
    for (const g of groups) {
      counts.all += g.n;
      if ((orderStatuses as readonly string[]).includes(g._id)) counts[g._id as OrderStatus] += g.n;
      else counts.pending += g.n;
    }
    return counts;
  }

  app.get(
    base,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Orders table: paging, tab counts, search, filters, sort, summary cards',
        querystring: adminOrderListQuerySchema,
        response: { 200: adminOrderListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const query = request.query;
      const filter = listFilter(query);
      const others = baseFilter(query);
      // The unfiltered dashboard needs one aggregation for both the cards and the tab counts.
      const [orders, everything, filtered] = await Promise.all([
        Order.find(filter)
          .sort(listSort(query.sortBy, query.sortDir))
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .lean<OrderDoc[]>(),
        statusGroups({}),
        Object.keys(others).length > 0 ? statusGroups(others) : null,
      ]);
      const groups = filtered ?? everything;
      const counts = countsOf(groups);
      const cards = summaryOf(everything);
      const total = query.status === 'all' ? counts.all : (groups.find((g) => g._id === query.status)?.n ?? 0);
      return {
        success: true as const,
        orders: orders.map(adminRow),
        page: query.page,
        pageSize: query.pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
        counts,
        summary: cards,
      };
    },
  );

  app.get(
    `${base}/:id/details`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'One order with every section of the details view',
        params: idParams,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, order: adminDetail(await load(request.params.id)) }),
  );

  app.put(
    `${base}/:id/details`,
    {
      schema: {
        tags: ['admin orders'],
        summary:
          'Edit an order: partial fields (notes, quantity whole number, total decimal; invalid values become 0), admin notes',
        params: idParams,
        body: adminOrderEditSchema,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const edit = request.body;
      const set: Record<string, unknown> = {};
      if (edit.customerName !== undefined) set.customerName = edit.customerName;
      if (edit.email !== undefined) {
        set.email = edit.email;
        set.emailKey = edit.email.toLowerCase();
      }
      if (edit.phone !== undefined) set.phone = edit.phone;
      if (edit.quantity !== undefined) set.quantity = edit.quantity;
      if (edit.total !== undefined) set.estimatedTotal = edit.total;
      if (edit.description !== undefined) set.description = edit.description;
      if (edit.notes !== undefined) set.notes = edit.notes;
      if (edit.adminNotes !== undefined)
        Object.assign(set, {
          adminNotes: edit.adminNotes,
          adminNotesUpdatedBy: adminActor(request),
          adminNotesUpdatedAt: new Date(),
        });
      if (edit.customerCategory !== undefined) set.customerCategory = edit.customerCategory;
      const order = await Order.findByIdAndUpdate(
        request.params.id,
        { $set: set },
        { returnDocument: 'after', runValidators: true },
      ).lean<OrderDoc>();
      if (!order) throw notFound(adminOrderMessages.orderNotFound);
      request.log.info({ orderId: order._id, fields: Object.keys(set), admin: adminActor(request) }, 'order edited');
      return { success: true as const, order: adminDetail(order) };
    },
  );

  /**
   * Sets a status inside the caller's transaction: history entry, and order.status_changed (with an
   * email-history entry when the customer is emailed about it). Returns false when nothing changed.
   */
  async function setStatus(
    session: ClientSession,
    outbox: Parameters<Parameters<typeof ctx.withOutbox>[0]>[1],
    order: OrderDoc,
    status: OrderStatus,
    changedBy: string,
    note: string | undefined,
    now: Date,
  ) {
    if (order.status === status) return false;
    const notify = isCustomerNotifiedStatus(status);
    const entry = notify
      ? queuedEntry(
          order,
          `Order #${order.orderNumber}: ${orderStatusLabels[status]}`,
          note ?? `Your order is now ${orderStatusLabels[status]}.`,
          'status_update',
          now,
        )
      : null;
    await Order.updateOne(
      { _id: order._id },
      {
        $set: { status, updatedAt: now },
        $push: {
          statusHistory: { status, date: now, changedBy, ...(note ? { note } : {}) },
          ...(entry ? { emailHistory: entry } : {}),
        },
      },
      { session, timestamps: false },
    );
    outbox.add(
      'order.status_changed',
      statusChangedData(order, {
        status,
        changedBy,
        note,
        total: orderTotal(order),
        at: now,
        emailRecordId: entry?.id,
      }),
    );
    return true;
  }

  app.put(
    `${base}/:id/status`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Set any of the eleven statuses',
        params: idParams,
        body: adminStatusChangeSchema,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = adminActor(request);
      await ctx.withOutbox(async (session, outbox) => {
        const order = await load(request.params.id, session);
        await setStatus(session, outbox, order, request.body.status, admin, request.body.note, new Date());
      });
      return { success: true as const, order: adminDetail(await load(request.params.id)) };
    },
  );

  app.post(
    `${base}/bulk/status`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Set one status on many orders (not pending or cancelled)',
        body: adminBulkStatusSchema,
        response: { 200: adminBulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const admin = adminActor(request);
      const ids = [...new Set(request.body.orderIds)];
      const result = await ctx.withOutbox(async (session, outbox) => {
        const orders = await Order.find({ _id: { $in: ids } })
          .session(session)
          .lean<OrderDoc[]>();
        const now = new Date();
        let updated = 0;
        for (const order of orders)
          if (await setStatus(session, outbox, order, request.body.status, admin, undefined, now)) updated++;
        const found = new Set(orders.map((o) => o._id));
        return { updated, notFound: ids.filter((id) => !found.has(id)) };
      });
      request.log.info({ admin, status: request.body.status, ...result }, 'bulk status change');
      return { success: true as const, ...result };
    },
  );

  app.post(
    `${base}/bulk/delete`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Delete many orders',
        body: adminBulkDeleteSchema,
        response: { 200: adminBulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const ids = [...new Set(request.body.orderIds)];
      const existing = await Order.find({ _id: { $in: ids } }, { _id: 1 }).lean<{ _id: string }[]>();
      const { deletedCount } = await Order.deleteMany({ _id: { $in: existing.map((o) => o._id) } });
      const found = new Set(existing.map((o) => o._id));
      request.log.info({ admin: adminActor(request), deleted: deletedCount }, 'bulk delete');
      return { success: true as const, updated: deletedCount, notFound: ids.filter((id) => !found.has(id)) };
    },
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Delete one order',
        params: idParams,
        response: { 200: adminDeleteResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { deletedCount } = await Order.deleteOne({ _id: request.params.id });
      if (deletedCount === 0) throw notFound(adminOrderMessages.orderNotFound);
      request.log.info({ admin: adminActor(request), orderId: request.params.id }, 'order deleted');
      return { success: true as const, deleted: request.params.id };
    },
  );

  app.put(
    `${base}/:id/tracking`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Tracking (carrier, number, optional estimated delivery); the customer sees it on /track',
        params: idParams,
        body: adminTrackingUpdateSchema,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { carrier, trackingNumber, estimatedDelivery } = request.body;
      const order = await Order.findByIdAndUpdate(
        request.params.id,
        {
          $set: {
            tracking: {
              carrier,
              trackingNumber,
              ...(estimatedDelivery ? { estimatedDelivery: new Date(estimatedDelivery) } : {}),
            },
          },
        },
        { returnDocument: 'after' },
      ).lean<OrderDoc>();
      if (!order) throw notFound(adminOrderMessages.orderNotFound);
      request.log.info({ admin: adminActor(request), orderId: order._id, carrier }, 'tracking set');
      return { success: true as const, order: adminDetail(order) };
    },
  );

  app.post(
    `${base}/:id/generate-quote`,
    {
      schema: {
        tags: ['admin orders'],
        summary:
          'Apply Quote: status quote_sent, quoted amount, expiry in 30 days; emails the payment link (sendEmail is always true)',
        params: idParams,
        body: adminQuoteSchema,
        response: { 200: adminOrderResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = adminActor(request);
      const amount = round2(request.body.quoteAmount);
      const notes = request.body.quoteNotes || undefined;
      // The tax rate comes from the payments domain's table by shipping state, asked before the
      // transaction so nothing is stored when payments cannot answer.
      const before = await load(request.params.id);
      const tax = await taxRateOf(before, request.log);
      await ctx.withOutbox(async (session, outbox) => {
        const order = await load(request.params.id, session);
        const now = new Date();
        const expiresAt = new Date(now.getTime() + quoteValidDays * 24 * 60 * 60 * 1000);
        // A discount applied before the quote follows the quoted amount (a percentage of it, a fixed sum capped by it).
        const discountAmount = discountOn(order.discount, amount);
        const { taxAmount, finalAmount } = quoteFigures(amount, discountAmount, tax.taxRate);
        const quote = {
          amount,
          ...(notes ? { notes } : {}),
          taxRate: tax.taxRate,
          taxBasis: tax.basis,
          taxAmount,
          finalAmount,
          expiresAt,
          sentAt: now,
        };
        const entry = queuedEntry(
          order,
          `Your quote for order #${order.orderNumber}`,
          notes ?? `Quote: ${formatMoney(amount)}`,
          'status_update',
          now,
        );
        const taxNote =
          taxAmount > 0 ? ` + tax ${formatMoney(taxAmount)} (${tax.basis}) = ${formatMoney(finalAmount)}` : '';
        await Order.updateOne(
          { _id: order._id },
          {
            $set: {
              quote,
              estimatedTotal: amount,
              status: 'quote_sent',
              updatedAt: now,
              ...(order.discount ? { 'discount.amount': discountAmount } : {}),
            },
            $push: {
              statusHistory: {
                status: 'quote_sent',
                date: now,
                changedBy: admin,
                note: `Quote sent: ${formatMoney(amount)}${taxNote}`,
              },
              emailHistory: entry,
            },
          },
          { session, timestamps: false },
        );
        outbox.add('order.quote_sent', {
          orderId: order._id,
          orderNumber: order.orderNumber,
          customerName: order.customerName,
          email: order.email,
          itemType: order.itemType,
          quantity: Math.max(1, order.quantity),
          quoteAmount: amount,
          ...(notes ? { quoteNotes: notes } : {}),
          taxRate: tax.taxRate,
          taxAmount,
          finalAmount,
          quoteExpiresAt: expiresAt.toISOString(),
          paymentPath: orderPaymentPath(order._id),
          emailRecordId: entry.id,
        });
      });
      return { success: true as const, order: adminDetail(await load(request.params.id)) };
    },
  );

  app.post(
    `${base}/:id/info-request`,
    {
      schema: {
        tags: ['admin orders'],
        summary:
          "Request More Information: emailed with the subject 'Additional Information Needed - Order #{orderNumber}'",
        params: idParams,
        body: adminInfoRequestSchema,
        response: { 200: adminEmailQueuedResponseSchema, ...errors },
      },
    },
    async (request) => {
      const entry = await ctx.withOutbox(async (session, outbox) => {
        const order = await load(request.params.id, session);
        const subject = infoRequestSubject(order.orderNumber);
        const entry = queuedEntry(order, subject, request.body.message, 'admin_message', new Date());
        await Order.updateOne({ _id: order._id }, { $push: { emailHistory: entry } }, { session });
        outbox.add('order.info_requested', {
          orderId: order._id,
          orderNumber: order.orderNumber,
          customerName: order.customerName,
          email: order.email,
          subject,
          message: request.body.message,
          emailRecordId: entry.id,
        });
        return entry;
      });
      const order = await load(request.params.id);
      return {
        success: true as const,
        order: adminDetail(order),
        emailRecord: emailHistoryView(order).find((e) => e.id === entry.id)!,
      };
    },
  );

  app.post(
    `${base}/:id/send-email`,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'Send Email to the customer about this order (answers the emailRecord of its history)',
        params: idParams,
        body: adminSendEmailSchema,
        response: { 200: adminEmailQueuedResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { subject, message, type } = request.body;
      const entry = await ctx.withOutbox(async (session, outbox) => {
        const order = await load(request.params.id, session);
        const entry = queuedEntry(order, subject, message, type, new Date());
        await Order.updateOne({ _id: order._id }, { $push: { emailHistory: entry } }, { session });
        outbox.add('order.email_requested', {
          orderId: order._id,
          orderNumber: order.orderNumber,
          customerName: order.customerName,
          email: order.email,
          subject,
          message,
          type,
          emailRecordId: entry.id,
        });
        return entry;
      });
      const order = await load(request.params.id);
      return {
        success: true as const,
        order: adminDetail(order),
        emailRecord: emailHistoryView(order).find((e) => e.id === entry.id)!,
      };
    },
  );
}
