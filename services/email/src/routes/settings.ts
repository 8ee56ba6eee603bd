// GET/PUT /api/admin/settings: the admin notification settings (admin §2 settings modal, §7 calls).
// Back-office routes: the gateway lets only a signed-in admin through (its admin rules for /api/admin/**).
import { adminSettingsSchema, errorEnvelopeSchema } from '@shop/contracts';
import { signedInAdmin, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { z } from 'zod';
import type { EmailSettings } from '../config.js';
import type { EmailModels } from '../models/index.js';
import { currentAdminSettings, saveAdminSettings } from '../settings.js';

const settingsReply = z.object({ success: z.literal(true), settings: adminSettingsSchema });

export function settingsRoutes(app: ServiceApp, ctx: ServiceContext<EmailModels>, settings: EmailSettings) {
  app.get(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Where new-order notifications go, and whether they are sent',
        response: { 200: settingsReply, 500: errorEnvelopeSchema },
      },
    },
    async () => ({ success: true as const, settings: await currentAdminSettings(ctx.models.AdminSettings, settings) }),
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change the notification address or turn new-order notifications on or off',
        body: adminSettingsSchema,
        response: { 200: settingsReply, 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const saved = await saveAdminSettings(ctx.models.AdminSettings, request.body);
      request.log.info({ admin: signedInAdmin(request)?.email, settings: saved }, 'admin settings changed');
      return { success: true as const, settings: saved };
    },
  );
}
