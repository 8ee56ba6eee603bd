// Security headers and rate limiting for everything the gateway answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { GatewayConfig } from './config.js';
import { errorCodes } from '@shop/contracts';
import { AppError } from '@shop/service-kit';

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
  const path = request.url.split('?', 1)[0];
  return !path.startsWith('/api/') || path === '/api/health';
}

export async function registerSecurity(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  // Helmet's middleware is built once here; @fastify/helmet rebuilt it (parsing the policy again) on
  // every request, a measurable share of the gateway's time under load (load-tests/RESULTS.md, Gateway).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );

  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    allowList: (request) => exempt(request),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(
        429,
        errorCodes.RATE_LIMITED,
        `Too many requests from your address: the limit is ${context.max} per ${minutes(config.rateLimit.windowMs)}. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
      );
    },
  });
}
