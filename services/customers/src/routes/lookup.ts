// POST /api/customers/lookup and /api/customers/verify: the returning-customer lookup of the storefront
// (§2 lookup modal, §5 rules, §7 calls). A lookup for a known email emails a 6-digit code (stored only
// as a keyed hash, valid 10 minutes, 5 tries, single use); verify returns the saved details that
// prefill the order flow.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  customerLookupErrorCodes as codes,
  customerLookupErrorSchema,
  customerLookupMessages as messages,
  customerLookupRequestSchema,
  customerLookupResponseSchema,
  customerVerifyRequestSchema,
  customerVerifyResponseSchema,
  limits,
  lookupMessage,
  verificationMaxAttempts,
  type CustomerLookupError,
  type VerifiedCustomer,
} from '@shop/contracts';
import { hitRateLimit, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { LookupSettings } from '../config.js';
import { codeMatches, hashCode, newCode, newSalt, normalizeEmail, splitName } from '../domain/codes.js';
import { savedAddressOf } from '../domain/saved-address.js';
import type { CustomerDoc, CustomersModels } from '../models/index.js';

export interface LookupDeps {
  settings: LookupSettings;
  /** Injectable so tests can move time past the code's expiry. */
  clock: () => Date;
}

const codeTtlMs = limits.verificationCodeTtlMinutes * 60_000;
const keepAfterExpiryMs = 24 * 60 * 60_000;

function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: CustomerLookupError['details'],
  extra: Partial<CustomerLookupError> = {},
) {
  const body: CustomerLookupError = { success: false, ...extra, error: message, message, code, requestId: request.id };
  if (details) body.details = details;
  if (details?.retryAfterSeconds) reply.header('retry-after', String(details.retryAfterSeconds));
  return reply.status(status).send(body);
}

/** The first problem of a body as the spec's own sentence (the browser shows it as it is). */
function firstIssue(schema: z.ZodType, body: unknown): { field: string; message: string } | undefined {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return {
    field: issue.path.map(String).join('.') || 'input',
    message: issue.message.startsWith('Invalid input') ? messages.emailRequired : issue.message,
  };
}

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

export function toVerifiedCustomer(profile: CustomerDoc): VerifiedCustomer {
  const address = savedAddressOf(profile.lastShippingAddress);
  return {
    customerName: profile.customerName,
    ...splitName(profile.customerName),
    email: profile.email,
    phone: profile.phone ?? '',
    // Both names carry the same address: the spec's lookup result says shippingAddress, the form reads
    // lastShippingAddress (storefront §3).
    shippingAddress: address,
    lastShippingAddress: address,
    customerCategory: profile.customerCategory,
    orderCount: profile.orderCount,
    lastOrderAt: profile.lastOrderAt ? profile.lastOrderAt.toISOString() : null,
  };
}

export function lookupRoutes(app: ServiceApp, ctx: ServiceContext<CustomersModels>, deps: LookupDeps) {
  const { Customer, VerificationCode, RateCounter } = ctx.models;
  const { settings, clock } = deps;

  app.post(
    '/api/customers/lookup',
    {
      attachValidation: true,
      schema: {
        tags: ['customers'],
        summary: 'Returning customer: email a 6-digit verification code when orders exist for this address',
        body: customerLookupRequestSchema,
        response: { 200: customerLookupResponseSchema, 400: customerLookupErrorSchema, 429: customerLookupErrorSchema },
      },
    },
    async (request, reply) => {
      const problem = firstIssue(customerLookupRequestSchema, request.body);
      if (problem)
        return refuse(
          request,
          reply,
          400,
          codes.validation,
          problem.message,
          { field: problem.field },
          { verificationSent: false },
        );
      const email = normalizeEmail(request.body.email);
      const now = clock();

      const byIp = await hitRateLimit(RateCounter, 'lookup-ip', request.ip, settings.perIp, settings.windowMs, now);
      if (!byIp.allowed) {
        const message = lookupMessage(messages.tooManyLookupsFromAddress, { minutes: minutes(byIp.retryAfterSeconds) });
        return refuse(
          request,
          reply,
          429,
          codes.rateLimited,
          message,
          { retryAfterSeconds: byIp.retryAfterSeconds },
          { verificationSent: false },
        );
      }
      const byEmail = await hitRateLimit(RateCounter, 'lookup-email', email, settings.perEmail, settings.windowMs, now);
      if (!byEmail.allowed) {
        const message = lookupMessage(messages.tooManyLookupsForEmail, { minutes: minutes(byEmail.retryAfterSeconds) });
        return refuse(
          request,
          reply,
          429,
          codes.rateLimited,
          message,
          { retryAfterSeconds: byEmail.retryAfterSeconds },
          { verificationSent: false },
        );
      }

      const profile = await Customer.findOne({ email }).lean();
      if (!profile) return { success: false, verificationSent: false, message: messages.notFound };

      const code = newCode();
      const salt = newSalt();
      const expiresAt = new Date(now.getTime() + codeTtlMs);
      await ctx.withOutbox(async (session, outbox) => {
        // One live code per address: a new request retires the older ones.
        await VerificationCode.updateMany({ email, status: 'active' }, { $set: { status: 'superseded' } }).session(
          session,
        );
        await VerificationCode.create(
          [
            {
              email,
              codeHash: hashCode(settings.secret, salt, email, code),
              salt,
              expiresAt,
              requestedFrom: request.ip,
              deleteAt: new Date(expiresAt.getTime() + keepAfterExpiryMs),
            },
          ],
          { session },
        );
        // The clear code travels only to the email service, which writes it into the email.
        outbox.add('customer.verification_requested', {
          email,
          customerName: profile.customerName,
          code,
          expiresAt: expiresAt.toISOString(),
        });
      });
      request.log.info({ lastOrderNumber: profile.lastOrderNumber }, 'verification code requested');
      return { success: true, verificationSent: true, message: messages.codeSent, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    '/api/customers/verify',
    {
      attachValidation: true,
      schema: {
        tags: ['customers'],
        summary: 'Returning customer: check the emailed code and return the saved details',
        body: customerVerifyRequestSchema,
        response: { 200: customerVerifyResponseSchema, 400: customerLookupErrorSchema, 429: customerLookupErrorSchema },
      },
    },
    async (request, reply) => {
      const problem = firstIssue(customerVerifyRequestSchema, request.body);
      if (problem) return refuse(request, reply, 400, codes.validation, problem.message, { field: problem.field });
      const email = normalizeEmail(request.body.email);
      const code = request.body.verificationCode.trim();
      const now = clock();

      const byIp = await hitRateLimit(
        RateCounter,
        'verify-ip',
        request.ip,
        settings.verifyPerIp,
        settings.windowMs,
        now,
      );
      if (!byIp.allowed) {
        const message = lookupMessage(messages.tooManyVerifications, { minutes: minutes(byIp.retryAfterSeconds) });
        return refuse(request, reply, 429, codes.rateLimited, message, { retryAfterSeconds: byIp.retryAfterSeconds });
      }

      // The newest code that was not replaced by a later request.
      const record = await VerificationCode.findOne({ email, status: { $ne: 'superseded' } })
        .sort({ createdAt: -1 })
        .lean();
      if (!record || record.status === 'used')
        return refuse(request, reply, 400, codes.noPendingCode, messages.noPendingCode);
      if (record.status === 'locked' || record.attempts >= verificationMaxAttempts) {
        return refuse(request, reply, 429, codes.codeLocked, messages.codeLocked, { remainingAttempts: 0 });
      }
      if (record.expiresAt.getTime() <= now.getTime())
        return refuse(request, reply, 400, codes.codeExpired, messages.codeExpired);

      if (codeMatches(settings.secret, record.salt, email, code, record.codeHash)) {
        // Conditional update: of two requests racing with the right code, only one gets the details.
        const claimed = await VerificationCode.findOneAndUpdate(
          { _id: record._id, status: 'active', attempts: { $lt: verificationMaxAttempts }, expiresAt: { $gt: now } },
          { $set: { status: 'used', usedAt: now } },
          { returnDocument: 'after' },
        ).lean();
        const profile = claimed ? await Customer.findOne({ email }).lean() : null;
        if (!claimed || !profile) return refuse(request, reply, 400, codes.noPendingCode, messages.noPendingCode);
        const customer = toVerifiedCustomer(profile);
        return {
          success: true as const,
          customer,
          message: lookupMessage(messages.verified, { name: customer.firstName || customer.customerName || 'back' }),
        };
      }

      const counted = await VerificationCode.findOneAndUpdate(
        { _id: record._id, status: 'active', attempts: { $lt: verificationMaxAttempts } },
        { $inc: { attempts: 1 } },
        { returnDocument: 'after' },
      ).lean();
      if (!counted) return refuse(request, reply, 429, codes.codeLocked, messages.codeLocked, { remainingAttempts: 0 });
      const remaining = verificationMaxAttempts - counted.attempts;
      if (remaining <= 0) {
        await VerificationCode.updateOne({ _id: record._id, status: 'active' }, { $set: { status: 'locked' } });
        return refuse(request, reply, 429, codes.codeLocked, `Invalid verification code. ${messages.codeLocked}`, {
          remainingAttempts: 0,
        });
      }
      const left = `You have ${remaining} attempt${remaining === 1 ? '' : 's'} left.`;
      return refuse(request, reply, 400, codes.invalidCode, `${messages.invalidCode} ${left}`, {
        remainingAttempts: remaining,
      });
    },
  );
}
