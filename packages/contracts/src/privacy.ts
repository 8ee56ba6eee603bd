// Privacy requests on one customer (issue 16): the administrator exports everything the shop holds on
// the customer as one JSON document, or erases the customer. The erasure travels as the
// `privacy.erasure_requested` event (PRIVACY stream, kept for days so a service that is down still gets
// it); each service that holds personal data anonymises its documents of that customer, idempotently.
// The export gathers each service's part over NATS request/reply (`rpc.<service>.privacy-export`).
import { z } from 'zod';
import { rpcSubject } from './rpc.js';
import type { ServiceName } from './services.js';

const isoDate = z.iso.datetime({ offset: true });

/** Where an erased customer's email pointed: a reserved domain (RFC 2606), so no mail can ever go out. */
export const erasedEmailDomain = 'erased.invalid';
/** The anonymous address that replaces an erased customer's email in every service (one per erasure). */
export const erasedEmailFor = (erasureId: string) => `erased-${erasureId}@${erasedEmailDomain}`;
export const isErasedEmail = (email: string) => email.toLowerCase().endsWith(`@${erasedEmailDomain}`);
/** What replaces an erased customer's name, and any free text they wrote, wherever a value is required. */
export const erasedName = 'Erased customer';
export const erasedText = "[removed on the customer's erasure request]";

export const customerErasureRequestedData = z.object({
  erasureId: z.uuid(),
  /** The customer's id in the customers service. */
  customerId: z.string().min(1),
  /**
   * The lower-cased address whose data goes: the one key every service files the customer under. It
   * lives only as long as the PRIVACY stream keeps the event (eventStreams.PRIVACY.maxAgeMs).
   */
  email: z.email(),
  /** What replaces the email everywhere (erasedEmailFor(erasureId)), so figures stay grouped by customer. */
  anonymisedEmail: z.email(),
  /** The customer's orders (ids and numbers) as the customers projection knows them. */
  orderIds: z.array(z.string().min(1)),
  orderNumbers: z.array(z.string().min(1)),
  /** The phone numbers the customer gave (marketing keeps SMS by number). */
  phones: z.array(z.string()).default([]),
  requestedBy: z.string().min(1),
  requestedAt: isoDate,
});
export type CustomerErasureRequested = z.infer<typeof customerErasureRequestedData>;

/** The services that hold a customer's personal data and answer an export request for their part. */
export const privacyExportServices = [
  'orders',
  'support',
  'marketing',
  'email',
] as const satisfies readonly ServiceName[];
export type PrivacyExportService = (typeof privacyExportServices)[number];
export const privacyExportSubject = (service: PrivacyExportService) => rpcSubject(service, 'privacy-export');

export const privacyExportRequestSchema = z.object({
  email: z.email(),
  orderIds: z.array(z.string().min(1)).max(10_000),
  orderNumbers: z.array(z.string().min(1)).max(10_000),
  phones: z.array(z.string()).max(100).default([]),
});
export type PrivacyExportRequest = z.infer<typeof privacyExportRequestSchema>;

/** One service's part: its collections, each a list of the customer's documents as that service keeps them. */
export const privacyExportPartSchema = z.object({
  service: z.string(),
  collections: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type PrivacyExportPart = z.infer<typeof privacyExportPartSchema>;

// ---------------------------------------------------------------------------------------------
// HTTP (admin): GET /api/customers/{id}/export, POST /api/customers/{id}/erasure
// ---------------------------------------------------------------------------------------------
export const customerPrivacyPaths = {
  export: '/api/customers/:id/export',
  erasure: '/api/customers/:id/erasure',
} as const;

export const customerExportFileName = (customerId: string, date: Date) =>
  `customer-${customerId}-${date.toISOString().slice(0, 10)}.json`;

export const customerExportSchema = z.object({
  success: z.literal(true),
  exportedAt: isoDate,
  exportedBy: z.string(),
  customerId: z.string(),
  /** Every service's part, keyed by service: `customers` (profile, orders as counted, erasure audit) and the services of privacyExportServices. */
  services: z.record(z.string(), privacyExportPartSchema),
});
export type CustomerExport = z.infer<typeof customerExportSchema>;

export const erasureReasonMax = 1000;
/** POST /api/customers/{id}/erasure: the admin types the customer's email to confirm, and says why. */
export const customerErasureRequestSchema = z.object({
  confirmEmail: z.string().trim().min(1, "Type the customer's email address to confirm"),
  reason: z
    .string()
    .trim()
    .min(3, 'Please give the reason for the erasure (at least 3 characters)')
    .max(erasureReasonMax, `The reason can be at most ${erasureReasonMax} characters`),
});
export type CustomerErasureRequest = z.infer<typeof customerErasureRequestSchema>;

/** The erasure dialog's form: the same fields, and the typed email must be the customer's. */
export const customerErasureFormSchema = (customerEmail: string) =>
  customerErasureRequestSchema.refine((v) => v.confirmEmail.toLowerCase() === customerEmail.trim().toLowerCase(), {
    path: ['confirmEmail'],
    message: "The email does not match this customer's email",
  });

export const erasureMismatchMessage = "The email you typed does not match this customer's email. Nothing was erased.";

export const customerErasureAuditSchema = z.object({
  erasureId: z.string(),
  customerId: z.string(),
  requestedBy: z.string(),
  requestedAt: isoDate,
  reason: z.string(),
});
export type CustomerErasureAudit = z.infer<typeof customerErasureAuditSchema>;

export const customerErasureResultSchema = z.object({
  success: z.literal(true),
  /** False when the customer had already been erased: nothing changed (the audit below is the first request). */
  erased: z.boolean(),
  alreadyErased: z.boolean(),
  message: z.string(),
  erasure: customerErasureAuditSchema,
});
export type CustomerErasureResult = z.infer<typeof customerErasureResultSchema>;

/** Matches one address whatever its case (services that did not lower-case the emails they keep). */
export function sameEmailPattern(email: string): RegExp {
  return new RegExp(`^${email.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');
}
