// The gateway's routing table: which service answers which public path. It mirrors the
// "Who owns what" table of shared/ARCHITECTURE.md; keep the two in step.

import { serviceNames, type ServiceName } from '@shop/contracts';

export const SERVICE_NAMES = serviceNames;
export type { ServiceName };

/** Which body size limit applies to a route: `json` for ordinary API calls, `upload` for multipart files. */
export type BodyLimitKind = 'json' | 'upload';
/** Which upstream timeout applies: `slow` for calls known to take long (image generation, big uploads). */
export type TimeoutKind = 'normal' | 'slow';

export interface RouteRow {
  /** Public path prefix; matches the prefix itself and everything below it (`/api/orders`, `/api/orders/...`). */
  prefix: string;
  service: ServiceName;
  body: BodyLimitKind;
  timeout: TimeoutKind;
  /** What lives there, for the docs page and for people reading this table. */
  purpose: string;
}

function row(
  prefix: string,
  service: ServiceName,
  purpose: string,
  opts: Partial<Pick<RouteRow, 'body' | 'timeout'>> = {},
): RouteRow {
  return { prefix, service, purpose, body: opts.body ?? 'json', timeout: opts.timeout ?? 'normal' };
}

// Paths are forwarded unchanged: a service serves the same public path the browser calls, so
// logs, OpenAPI documents and links read the same on both sides of the gateway.
export const ROUTES: readonly RouteRow[] = [
  row('/api/orders', 'orders', 'quote requests, tracking, order history, admin order management'),
  row('/api/upload', 'orders', 'artwork uploads (multipart) and stored files', { body: 'upload', timeout: 'slow' }),
  row('/api/ai', 'orders', 'AI design generator', { timeout: 'slow' }),
  row('/api/payments', 'payments', 'payment intents, Stripe webhook, payment confirmation'),
  row('/api/config/business', 'payments', 'business registration details'),
  row(
    '/api/customers',
    'customers',
    'returning-customer lookup and verification, admin customer list and details, privacy export and erasure',
  ),
  row('/api/support', 'support', 'support messages and replies'),
  row('/api/config/contact', 'support', 'public and admin contact details'),
  row('/api/returns', 'support', 'returns and exchanges requests (with photos)', { body: 'upload', timeout: 'slow' }),
  row('/api/marketing', 'marketing', 'campaigns, discounts, SMS templates, subscribers'),
  row('/api/content', 'marketing', 'site content'),
  row('/api/auth', 'security', 'admin sign-in, sign-out, current admin'),
  row('/api/security', 'security', 'request logs, bans, alerts'),
  row('/api/email', 'email', 'email queue and diagnostics'),
  row('/api/admin/settings', 'email', 'admin notification settings'),
  row('/api/debug', 'email', 'developer diagnostics (environment, local mailbox)'),
];

/** The row that owns a public path, or undefined (the gateway then answers 404 itself). */
export function routeForPath(path: string): RouteRow | undefined {
  const pathname = path.split('?', 1)[0];
  return ROUTES.find((r) => pathname === r.prefix || pathname.startsWith(`${r.prefix}/`));
}
