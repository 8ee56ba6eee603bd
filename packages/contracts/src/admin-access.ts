// Who may call what: the one table of the shop's access rules. Every call the back office makes
// needs a signed-in admin; the storefront's calls stay public. The first rule that matches the method
// and path decides; a path no rule matches is public (the service then answers it, or 404s).
// The gateway checks the admin session against it, and every service (service-kit) checks the
// gateway's signed identity against the same rows, so a call that skips the gateway gets no further.
//
// Patterns: `/api/orders` is that path only; `:id` is exactly one segment; a trailing `/**` is the path
// itself and everything below it. Later issues add their rows here (keep the specific rows above the
// catch-all of their prefix).

import { serviceInfoPath, serviceNames } from './services.js';

export type AccessLevel =
  /** Anyone; unsafe methods must still come from the shop's own pages when `sameOriginWrites` is set. */
  | 'public'
  /** A live admin session, and unsafe methods only from the shop's own pages. */
  | 'admin';

export type AccessMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface AccessRule {
  methods: readonly AccessMethod[] | '*';
  pattern: string;
  access: AccessLevel;
  /** For public rows: refuse cross-site writes too (sign-in and sign-out: no login CSRF). */
  sameOriginWrites?: boolean;
  why: string;
}

const rule = (
  methods: AccessRule['methods'],
  pattern: string,
  access: AccessLevel,
  why: string,
  extra: Partial<AccessRule> = {},
): AccessRule => ({
  methods,
  pattern,
  access,
  why,
  ...extra,
});

export const ACCESS_RULES: readonly AccessRule[] = [
  // Each service's info route (name, version, start time): reachability checks, nothing private.
  ...serviceNames.map((service) =>
    rule(['GET', 'HEAD'], serviceInfoPath(service), 'public', `${service} service info`),
  ),
  // Sign-in itself is public, but only from the shop's pages.
  rule('*', '/api/auth/**', 'public', 'admin sign-in, sign-out, current admin', { sameOriginWrites: true }),

  // Orders: the storefront (storefront §7) and the back office (admin part A §7) share /api/orders and
  // the method decides (GET /api/orders/:id is the payment view, PATCH .../status the payment
  // confirmation; PUT .../status, DELETE, GET /api/orders are the admin's). The admin's one-segment
  // reads come first, or the payment view's row would open them.
  rule('*', '/api/orders/analytics/**', 'admin', 'sales analytics'),
  rule('*', '/api/orders/export.csv', 'admin', 'CSV export of the orders table'),
  rule(['POST'], '/api/orders', 'public', 'quote request'),
  rule(['POST'], '/api/orders/track', 'public', 'order tracking (order number + email)'),
  rule(['POST'], '/api/orders/history', 'public', 'order history (email)'),
  rule(['GET', 'HEAD'], '/api/orders/:id', 'public', 'payment view of one order (link holder)'),
  rule(
    ['PATCH'],
    '/api/orders/:id/status',
    'public',
    'payment confirmation from the payment page (orders checks it with payments)',
  ),
  rule(
    '*',
    '/api/orders/**',
    'admin',
    'order list, details and edit, status, quote, emails, info request, tracking, delete, bulk actions',
  ),

  // Payments (storefront §7): the payment page's calls are public, from the shop's own pages only;
  // Stripe calls the webhook from its servers (no Origin: the signature is the check, in payments).
  rule(
    ['GET', 'HEAD'],
    '/api/payments/config',
    'public',
    'payment provider of the payment page (mode, publishable key)',
  ),
  rule(['POST'], '/api/payments/create-intent', 'public', 'payment intent for a quote (the server charges the quote)', {
    sameOriginWrites: true,
  }),
  rule(
    ['POST'],
    '/api/payments/test-mode/confirm',
    'public',
    "test mode's card confirmation (stands in for Stripe.js)",
    { sameOriginWrites: true },
  ),
  rule(['POST'], '/api/payments/webhook', 'public', 'Stripe webhook (signature-checked by payments)'),
  rule('*', '/api/payments/**', 'admin', 'payment administration'),

  // Customers: returning-customer lookup is public, the customer list is admin.
  rule(['POST'], '/api/customers/lookup', 'public', 'returning-customer lookup'),
  rule(['POST'], '/api/customers/verify', 'public', 'returning-customer verification code'),
  // Privacy requests (issue 16): named rows, so the audit trail and the docs say what was done.
  rule(
    ['GET', 'HEAD'],
    '/api/customers/:id/export',
    'admin',
    'export of everything the shop holds on one customer (privacy request)',
  ),
  rule(
    ['POST'],
    '/api/customers/:id/erasure',
    'admin',
    "erasure of one customer's personal data in every service (privacy request)",
  ),
  rule('*', '/api/customers/**', 'admin', 'customer list and details'),

  // Support: visitors send messages; the inbox is admin.
  rule(['POST'], '/api/support', 'public', 'contact form message'),
  rule('*', '/api/support/**', 'admin', 'support inbox, replies, status, delete'),
  rule(['POST'], '/api/returns', 'public', 'return request with photos'),
  rule('*', '/api/returns/**', 'admin', 'returns list, status changes, photos'),

  // Site configuration: the public contact details, the rest is admin.
  rule(['GET', 'HEAD'], '/api/config/contact/public', 'public', 'contact details shown on the site'),
  rule(
    ['GET', 'HEAD'],
    '/api/config/business/public',
    'public',
    'registered business details shown on /business (no EIN)',
  ),
  rule('*', '/api/config/**', 'admin', 'contact and business configuration'),

  // Content: read by the site, written by admins.
  rule(['GET', 'HEAD'], '/api/content/public', 'public', 'site content the storefront renders'),
  rule('*', '/api/content/**', 'admin', 'content editing, versions and the admin read'),

  // Campaign emails: the unsubscribe link (RFC 8058 one-click POST from mail clients, no Origin; the
  // confirmation page) and the open image / click redirect, each signed by the email's random token.
  rule(
    ['GET', 'HEAD', 'POST'],
    '/api/marketing/unsubscribe/:token',
    'public',
    'unsubscribe from campaign emails (token in the link)',
  ),
  rule(['GET', 'HEAD'], '/api/marketing/track/**', 'public', 'campaign email open image and click redirect'),
  rule('*', '/api/marketing/**', 'admin', 'campaigns, discounts, SMS templates, subscribers'),
  rule('*', '/api/security/**', 'admin', 'audit trail, request logs, bans, alerts'),
  rule('*', '/api/email/**', 'admin', 'email queue and diagnostics'),
  rule('*', '/api/admin/**', 'admin', 'admin settings'),
  // The gateway's own production-readiness report (it names settings and weaknesses).
  rule('*', '/api/health/production-check', 'admin', 'production-readiness report'),
  // Diagnostics, the local mailbox included (it lists verification codes and payment links; the
  // email service does not serve it at all in production).
  rule('*', '/api/debug/**', 'admin', 'developer diagnostics and the local mailbox'),
];

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/**
 * The path as the router sees it: query removed, each segment percent-decoded (the router matches
 * `/api/%61dmin/settings` as `/api/admin/settings`, so the rules must too), empty segments dropped.
 * Undefined when a segment is not valid percent-encoding, or decodes to a separator or a dot segment.
 */
export function canonicalPath(url: string): string | undefined {
  const raw = url.split('?', 1)[0];
  let decoded: string[];
  try {
    decoded = segments(raw).map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  // An encoded separator or dot segment would let the rules and the service read different paths.
  if (decoded.some((s) => s.includes('/') || s.includes('\\') || s === '.' || s === '..')) return undefined;
  return `/${decoded.join('/')}`;
}

/** True when a pattern matches a path (no query string). */
export function patternMatches(pattern: string, path: string): boolean {
  const want = segments(pattern);
  const got = segments(path);
  const deep = want.at(-1) === '**';
  const fixed = deep ? want.slice(0, -1) : want;
  if (deep ? got.length < fixed.length : got.length !== fixed.length) return false;
  return fixed.every((seg, i) => (seg.startsWith(':') ? got[i].length > 0 : seg === got[i]));
}

/** The rule deciding a call, or undefined (public, no rule). */
export function accessRuleFor(method: string, path: string): AccessRule | undefined {
  const m = method.toUpperCase();
  return ACCESS_RULES.find(
    (r) => (r.methods === '*' || r.methods.includes(m as AccessMethod)) && patternMatches(r.pattern, path),
  );
}

/** What a call needs: the deciding rule's access, public when no rule matches. */
export function accessFor(method: string, path: string): { access: AccessLevel; rule: AccessRule | undefined } {
  const found = accessRuleFor(method, path);
  return { access: found?.access ?? 'public', rule: found };
}

/** The access table's decision for one call; `path` undefined: an address refused as unsafe (`canonicalPath`). */
export interface AccessDecision {
  path: string | undefined;
  access: AccessLevel;
  rule: AccessRule | undefined;
}

/** Distinct method and address pairs whose decision is kept (ids in addresses make them many). */
const ACCESS_CACHE_MAX = 2_000;
/** Longer addresses are decided afresh each time, so the cache stays small whatever clients send. */
const ACCESS_CACHE_KEY_MAX = 300;
const decisions = new Map<string, AccessDecision>();

/**
 * `canonicalPath` then `accessFor` for a raw request target (query left out), kept for the addresses
 * seen most recently: decoding the path and walking the table's patterns on every call was a visible
 * share of the gateway's and the services' CPU (issue 20), and the same few addresses come again and again.
 */
export function accessOfUrl(method: string, url: string): AccessDecision {
  const query = url.indexOf('?');
  const key = `${method} ${query === -1 ? url : url.slice(0, query)}`;
  let decision = decisions.get(key);
  if (decision) return decision;
  const path = canonicalPath(url);
  decision = path === undefined ? { path, access: 'public', rule: undefined } : { path, ...accessFor(method, path) };
  if (key.length > ACCESS_CACHE_KEY_MAX) return decision;
  // The oldest entry makes room (Map keeps insertion order).
  if (decisions.size >= ACCESS_CACHE_MAX) decisions.delete(decisions.keys().next().value!);
  decisions.set(key, decision);
  return decision;
}

/** A label for the audit trail: "PUT /api/orders/**". */
export function ruleLabel(method: string, found: AccessRule | undefined, path: string): string {
  return `${method.toUpperCase()} ${found?.pattern ?? path}`;
}

const ID_LIKE = /^(?:[0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|.*\d.*)$/i;

/** The first id-like segment after /api/<area>/ (an order id, an email id...), for the audit trail. */
export function targetIdOf(path: string): string | undefined {
  const parts = segments(path).slice(2);
  const id = parts.find((p) => ID_LIKE.test(p));
  if (!id) return undefined;
  try {
    return decodeURIComponent(id).slice(0, 200);
  } catch {
    return id.slice(0, 200);
  }
}
