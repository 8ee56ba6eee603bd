// Privacy requests on one customer (issue 16), admin only (the gateway's /api/customers/** admin rule):
// GET /api/customers/{id}/export downloads everything the shop holds on the customer as one JSON file;
// POST /api/customers/{id}/erasure erases the customer's personal data in every service (the admin types
// the customer's email to confirm, and gives a reason). Both are recorded in `privacy_requests` with the
// admin from the gateway's signed identity.
import { createHash, randomUUID } from 'node:crypto';
import {
  customerErasureRequestSchema,
  customerErasureResultSchema,
  customerExportFileName,
  customerExportSchema,
  erasedEmailFor,
  erasureMismatchMessage,
  errorEnvelopeSchema,
  type CustomerErasureAudit,
  type CustomerErasureRequested,
} from '@shop/contracts';
import { adminActor, validationFailed, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { StatusSettings } from '../../config.js';
import type { CustomerOrderDoc, CustomersModels, PrivacyRequestDoc } from '../../models/index.js';
import { eraseCustomerProfile } from '../../privacy/erasure.js';
import { gatherCustomerExport } from '../../privacy/export.js';
import { customerIdPath, idParams, loadCustomer } from './customers.js';

const errors = { '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };

const auditView = (a: PrivacyRequestDoc & { _id: string }): CustomerErasureAudit => ({
  erasureId: a._id,
  customerId: a.customerId,
  requestedBy: a.requestedBy,
  requestedAt: new Date(a.requestedAt).toISOString(),
  reason: a.reason ?? '',
});

export function customerPrivacyRoutes(
  app: ServiceApp,
  ctx: ServiceContext<CustomersModels>,
  options: { thresholds: StatusSettings; clock: () => Date },
) {
  const { PrivacyRequest, CustomerOrder } = ctx.models;
  const { thresholds, clock } = options;

  app.get(
    customerIdPath('/export'),
    {
      schema: {
        tags: ['admin customers'],
        summary: 'Everything the shop holds on one customer, from every service, as one JSON file (a download)',
        params: idParams,
        response: { 200: customerExportSchema, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await loadCustomer(ctx.models, request.params.id);
      const now = clock();
      const by = adminActor(request);
      const document = await gatherCustomerExport(ctx, customer, by, now);
      await PrivacyRequest.create({
        _id: randomUUID(),
        kind: 'export',
        customerId: document.customerId,
        requestedBy: by,
        requestedAt: now,
      });
      request.log.info({ customerId: document.customerId, admin: by }, 'customer data exported');
      reply.header('content-disposition', `attachment; filename="${customerExportFileName(document.customerId, now)}"`);
      reply.header('cache-control', 'no-store');
      return document;
    },
  );

  app.post(
    customerIdPath('/erasure'),
    {
      schema: {
        tags: ['admin customers'],
        summary: "Erase a customer's personal data in every service (figures kept); a second request changes nothing",
        params: idParams,
        body: customerErasureRequestSchema,
        response: { 200: customerErasureResultSchema, ...errors },
      },
    },
    async (request) => {
      const customer = await loadCustomer(ctx.models, request.params.id);
      const customerId = customer._id.toString();
      if (customer.erasedAt) {
        const first = await PrivacyRequest.findOne({ customerId, kind: 'erasure' }).lean<
          PrivacyRequestDoc & { _id: string }
        >();
        const when = new Date(customer.erasedAt).toISOString().slice(0, 10);
        return {
          success: true as const,
          erased: false,
          alreadyErased: true,
          message: `This customer was already erased on ${when}${first ? ` (requested by ${first.requestedBy})` : ''}. Nothing changed.`,
          erasure: first
            ? auditView(first)
            : {
                erasureId: customer.erasureId ?? '',
                customerId,
                requestedBy: 'unknown',
                requestedAt: new Date(customer.erasedAt).toISOString(),
                reason: '',
              },
        };
      }
      const { confirmEmail, reason } = request.body;
      if (confirmEmail.trim().toLowerCase() !== customer.email) {
        throw validationFailed(erasureMismatchMessage, [{ field: 'confirmEmail', message: erasureMismatchMessage }]);
      }
      const now = clock();
      const erasureId = randomUUID();
      const requestedBy = adminActor(request);
      const orders = await CustomerOrder.find({ customerEmail: customer.email }, { orderNumber: 1 }).lean<
        (CustomerOrderDoc & { _id: string })[]
      >();
      const data: CustomerErasureRequested = {
        erasureId,
        customerId,
        email: customer.email,
        anonymisedEmail: erasedEmailFor(erasureId),
        orderIds: orders.map((o) => o._id),
        orderNumbers: orders.map((o) => o.orderNumber),
        phones: customer.phone ? [customer.phone] : [],
        requestedBy,
        requestedAt: now.toISOString(),
      };
      const erased = await ctx.withOutbox(async (session, outbox) => {
        // Checked again inside the transaction: of two admins erasing at once, one erases.
        if (!(await eraseCustomerProfile(ctx.models, session, data, thresholds, now))) return false;
        await PrivacyRequest.create(
          [
            {
              _id: erasureId,
              kind: 'erasure',
              customerId,
              requestedBy,
              requestedAt: now,
              reason,
              emailHash: createHash('sha256').update(customer.email).digest('hex'),
              anonymisedEmail: data.anonymisedEmail,
            },
          ],
          { session },
        );
        outbox.add('privacy.erasure_requested', data);
        return true;
      });
      const audit = erased
        ? { erasureId, customerId, requestedBy, requestedAt: now.toISOString(), reason }
        : auditView(
            (await PrivacyRequest.findOne({ customerId, kind: 'erasure' }).lean<
              PrivacyRequestDoc & { _id: string }
            >())!,
          );
      request.log.info(
        { customerId, erasureId: audit.erasureId, admin: requestedBy, orders: orders.length, erased },
        erased ? 'customer erasure requested' : 'customer already erased',
      );
      return {
        success: true as const,
        erased,
        alreadyErased: !erased,
        message: erased
          ? `The customer's personal data was erased here and the erasure was sent to every service (${orders.length} order${orders.length === 1 ? '' : 's'} kept in the figures, without name, email, phone or address).`
          : 'This customer was already erased. Nothing changed.',
        erasure: audit,
      };
    },
  );
}
