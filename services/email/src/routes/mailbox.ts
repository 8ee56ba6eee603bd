// GET/DELETE /api/debug/mailbox: the local dev mailbox's messages, for administrators developing the shop
// and for browser tests (read an emailed verification code on one machine). It lists verification codes
// and payment links, so the gateway lets only a signed-in admin reach it, and with NODE_ENV=production
// the route does not exist at all. It answers only when DEV_MAILBOX_URL is set, which the local runner
// does when it started the mailbox itself (no SMTP_URL).
import { AppError } from '@shop/service-kit';
import { errorEnvelopeSchema, mailboxListSchema, mailboxQuerySchema, type MailboxList } from '@shop/contracts';
import type { ServiceApp } from '@shop/service-kit';
import { z } from 'zod';

const notAvailable = () =>
  new AppError(
    404,
    'MAILBOX_NOT_AVAILABLE',
    'The local mailbox is only available when the shop runs on this machine without SMTP_URL (npm start or npm run dev).',
  );

export function mailboxRoutes(app: ServiceApp, devMailboxUrl: string | undefined, nodeEnv: string) {
  // Production: not registered, so the path is an unknown route and absent from the OpenAPI document.
  if (nodeEnv === 'production') return;

  async function call(path: string, init?: RequestInit) {
    if (!devMailboxUrl) throw notAvailable();
    let res: Response;
    try {
      res = await fetch(`${devMailboxUrl}${path}`, { ...init, signal: AbortSignal.timeout(5000) });
    } catch {
      throw new AppError(
        503,
        'MAILBOX_UNREACHABLE',
        `The local mailbox at ${devMailboxUrl} does not answer. Is the local runner still running?`,
      );
    }
    if (!res.ok) throw new AppError(502, 'MAILBOX_ERROR', `The local mailbox answered ${res.status}.`);
    return res.json();
  }

  app.get(
    '/api/debug/mailbox',
    {
      schema: {
        tags: ['debug'],
        summary: 'Development only (admin): messages kept by the local SMTP mailbox, newest first',
        querystring: mailboxQuerySchema,
        response: { 200: mailboxListSchema, 404: errorEnvelopeSchema, 503: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const params = new URLSearchParams();
      if (request.query.to) params.set('to', request.query.to);
      if (request.query.limit) params.set('limit', String(request.query.limit));
      const list = (await call(`/messages?${params.toString()}`)) as MailboxList;
      reply.header('cache-control', 'no-store');
      return list;
    },
  );

  app.delete(
    '/api/debug/mailbox',
    {
      schema: {
        tags: ['debug'],
        summary: 'Development only (admin): empty the local SMTP mailbox',
        response: { 200: z.object({ cleared: z.literal(true) }), 404: errorEnvelopeSchema, 503: errorEnvelopeSchema },
      },
    },
    async () => {
      await call('/messages', { method: 'DELETE' });
      return { cleared: true as const };
    },
  );
}
