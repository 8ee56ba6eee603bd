// The contact config: GET /api/config/contact/public for the public pages (storefront §7), and
// GET/POST /api/config/contact for the back office (admin §7). The gateway lets only a signed-in admin
// reach the last two (its admin rule for /api/config/**); the public route is open.
import {
  contactConfigPaths,
  contactConfigSavedSchema,
  contactConfigSchema,
  errorEnvelopeSchema,
  publicContactConfig,
  publicContactConfigSchema,
} from '@shop/contracts';
import { signedInAdmin, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { ContactDefaults } from '../config.js';
import { currentContactConfig, saveContactConfig } from '../contact.js';
import type { SupportModels } from '../models/index.js';

export function contactRoutes(app: ServiceApp, ctx: ServiceContext<SupportModels>, defaults: ContactDefaults) {
  app.get(
    contactConfigPaths.public,
    {
      schema: {
        tags: ['public'],
        summary: 'The support email, and the phone and hours while the shop shows them (null otherwise)',
        response: { 200: publicContactConfigSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => publicContactConfig(await currentContactConfig(ctx.models.ContactConfig, defaults)),
  );

  app.get(
    contactConfigPaths.admin,
    {
      schema: {
        tags: ['admin'],
        summary: 'The whole contact config, with the show toggles',
        response: { 200: contactConfigSchema, 500: errorEnvelopeSchema },
      },
    },
    async () => currentContactConfig(ctx.models.ContactConfig, defaults),
  );

  app.post(
    contactConfigPaths.admin,
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the contact config (valid email; phone and hours required while shown)',
        body: contactConfigSchema,
        response: { 200: contactConfigSavedSchema, 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request)?.email;
      const saved = await saveContactConfig(ctx.models.ContactConfig, request.body, admin ?? null);
      request.log.info({ admin: admin ?? null, config: saved }, 'contact config changed');
      return { success: true as const, config: saved };
    },
  );
}
