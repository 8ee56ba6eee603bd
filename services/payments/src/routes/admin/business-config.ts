// The business registration: GET/POST /api/config/business for the back office (admin part A §7; the
// gateway's rule for /api/config/** lets only a signed-in admin through) and GET
// /api/config/business/public for the storefront's /business page (names, address, permits in force;
// never the EIN).
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import {
  businessConfigPaths,
  businessConfigSavedSchema,
  businessConfigSchema,
  errorEnvelopeSchema,
  normalizeBusinessConfig,
  publicBusinessConfig,
  publicBusinessConfigSchema,
  type BusinessConfig,
} from '@shop/contracts';
import { signedInAdmin, type ServiceApp } from '@shop/service-kit';
import { businessConfigId, currentBusinessConfig, type BusinessConfigDoc } from '../../models/business-config.js';

export function businessConfigRoutes(app: ServiceApp, BusinessConfigModel: Model<BusinessConfigDoc>) {
  app.get(
    businessConfigPaths.public,
    {
      schema: {
        tags: ['public'],
        summary: 'The registered business details the public sees (no EIN)',
        response: { 200: publicBusinessConfigSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => publicBusinessConfig(await currentBusinessConfig(BusinessConfigModel)),
  );

  app.get(
    businessConfigPaths.admin,
    {
      schema: {
        tags: ['admin'],
        summary: 'The whole business registration: names, EIN, registered address, tax permits, licences',
        response: { 200: businessConfigSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => currentBusinessConfig(BusinessConfigModel),
  );

  app.post(
    businessConfigPaths.admin,
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the business registration (EIN as NN-NNNNNNN; each permit needs jurisdiction and number)',
        body: businessConfigSchema,
        response: { 200: businessConfigSavedSchema, 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      // A permit or licence added in the form has no id yet: it gets one here, once.
      const body = normalizeBusinessConfig(request.body);
      const next: BusinessConfig = {
        ...body,
        taxPermits: body.taxPermits.map((p) => ({ ...p, id: p.id || randomUUID() })),
        businessLicenses: body.businessLicenses.map((l) => ({ ...l, id: l.id || randomUUID() })),
      };
      const admin = signedInAdmin(request)?.email;
      await BusinessConfigModel.updateOne(
        { _id: businessConfigId },
        { $set: { ...next, updatedBy: admin ?? null } },
        { upsert: true },
      );
      request.log.info({ admin: admin ?? null }, 'business config changed');
      return { success: true as const, config: next };
    },
  );
}
