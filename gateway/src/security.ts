// Security headers and rate limiting for everything the gateway answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { normalizeIP } from '@fastify/rate-limit';
import type { GatewayConfig } from './config.js';
import { errorCodes } from '@shop/contracts';
import { AppError } from '@shop/service-kit/edge';
import { clientIpOf } from './bans.js';
import { LocalStore } from './rate-limit-store.js';

/** Stripe.js must load from Stripe's own host; its card field lives in Stripe's iframes, and it talks to Stripe's API. */
export const STRIPE_SOURCES = {
  script: ['https://js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/**
 * The shell and its remotes all load from this origin, as files (no inline scripts). Styles may be
 * inline because components set style attributes; images may be data:/blob: URLs (previews of
 * uploads and generated designs). The only other origin is Stripe, for the payment page's card field.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", ...STRIPE_SOURCES.script],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", ...STRIPE_SOURCES.connect],
  // 'self' as default-src allowed before; Stripe added for its card field.
  frameSrc: ["'self'", ...STRIPE_SOURCES.frame],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Not forced: local runs are plain http on 127.0.0.1, where upgrading would break every request.
  upgradeInsecureRequests: null,
};

function minutes(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  return `${Math.round(ms / 1000)} seconds`;
}

/** Rate limits apply to the API. Health checks and static files (cheap, cacheable) are exempt. */
function exempt(request: FastifyRequest): boolean {
  const url = request.url;
  if (!url.startsWith('/api/')) return true;
  // '/api/health', alone or with a query (no string cut out for it on every API call).
  return url.startsWith('/api/health') && (url.length === 11 || url[11] === '?');
}

/** The headers helmet sets with the shop's policy, as [name, value, name, value, ...]. */
export function helmetHeaders(): string[] {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  });
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure)
    throw failure instanceof Error ? failure : new Error('helmet could not work out its headers', { cause: failure });
  return [...headers].flat();
}

/** Security headers and the rate limit; answers the security headers for the forwarder (proxy.ts). */
export async function registerSecurity(app: FastifyInstance, config: GatewayConfig): Promise<readonly string[]> {
  // Helmet's headers are the same on every answer: worked out once here (helmetHeaders) instead of
  // helmet's chain of a dozen middlewares per request (@fastify/helmet even rebuilt the chain, parsing
  // the policy again, each time: load-tests/RESULTS.md, Gateway). Answers Fastify sends get them here,
  // where the route did not set its own (a remote's files allow cross-origin loading); answers
  // forwarded from a service get them from the forwarder, with the service's answer (forward.ts).
  const securityHeaders = helmetHeaders();
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (let i = 0; i < securityHeaders.length; i += 2)
      if (!reply.hasHeader(securityHeaders[i])) reply.header(securityHeaders[i], securityHeaders[i + 1]);
    done(null, payload);
  });

  registerRateLimit(app, config.rateLimit);
  return securityHeaders;
}

/** Addresses kept with their rate-limit key; the map starts over when full. */
const rateLimitKeysKept = 5_000;

/**
 * The address a client's requests are counted under: @fastify/rate-limit's normalizeIP (lower case; an
 * IPv4-mapped IPv6 address as IPv4; other IPv6 addresses as their /64). Its IPv6 check is a long
 * regular expression run on every address and an IPv6 address is parsed twice, 9-12 us a request
 * (a tenth of the proxied read's CPU): only an address with a colon can be IPv6, and each one's key is
 * kept for its next requests.
 */
function rateLimitKeys(): (ip: string) => string {
  const keys = new Map<string, string>();
  return (ip) => {
    if (!ip.includes(':')) return ip.toLowerCase();
    let key = keys.get(ip);
    if (key === undefined) {
      if (keys.size >= rateLimitKeysKept) keys.clear();
      key = normalizeIP(ip);
      keys.set(ip, key);
    }
    return key;
  };
}

/**
 * The per-address limit on the API: @fastify/rate-limit's counters (its in-memory store, the same
 * fixed window per address, IPv6 counted per /64, at most 5,000 addresses) and its headers, checked
 * in one callback hook. The plugin's own hook is an async function that awaits its allow list and
 * wraps the store's callback in a promise: a few promises and a microtask turn on every request of
 * the proxied read (issue 20). Registered before the admin check, so a flood of admin guesses is
 * limited before any session lookup (the plugin's hook, a route hook, ran after every app hook).
 */
function registerRateLimit(app: FastifyInstance, { max, windowMs }: GatewayConfig['rateLimit']): void {
  const store = new LocalStore(false, false, 5_000);
  const rateLimitKeyOf = rateLimitKeys();
  const limited = (ttlSeconds: number) =>
    new AppError(
      429,
      errorCodes.RATE_LIMITED,
      `Too many requests from your address: the limit is ${max} per ${minutes(windowMs)}. Please wait ${ttlSeconds} second${ttlSeconds === 1 ? '' : 's'} and try again.`,
    );
  app.addHook('onRequest', (request, reply, done) => {
    if (exempt(request)) return done();
    let hits = 0;
    let ttlMs = 0;
    // The store answers synchronously through its callback.
    store.incr(
      rateLimitKeyOf(clientIpOf(request)),
      (_error, counted) => {
        hits = counted.current;
        ttlMs = counted.ttl;
      },
      windowMs,
      max,
    );
    const ttlSeconds = Math.ceil(ttlMs / 1000);
    reply.header('x-ratelimit-limit', max);
    if (hits <= max) {
      reply.header('x-ratelimit-remaining', max - hits);
      reply.header('x-ratelimit-reset', ttlSeconds);
      return done();
    }
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', ttlSeconds);
    reply.header('retry-after', ttlSeconds);
    done(limited(Math.max(1, ttlSeconds)));
  });
}
