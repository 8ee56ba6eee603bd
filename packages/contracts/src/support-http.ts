// HTTP shapes of the support service's contact details (storefront §3 public contact config, §7
// GET /api/config/contact/public; admin §2 Contact & Support settings, §3 contact config, §7 calls).
// Administrators maintain one contact config; the public sees the email always, the phone only while
// showPhone is on and the hours only while showHours is on (null otherwise, never an empty string).
import { z } from 'zod';
import { supportPrioritySchema, supportStatusSchema } from './catalog.js';
import { returnConditionSchema, returnReasonSchema, returnStatusSchema } from './support-events.js';

export const contactConfigPaths = {
  /** GET: what the public pages show. Public. */
  public: '/api/config/contact/public',
  /** GET: the whole config; POST: replace it. Admin only (the gateway's rule for /api/config/**). */
  admin: '/api/config/contact',
} as const;

/**
 * The support address in local development (the local dev mailbox accepts any address). Production
 * sets SUPPORT_EMAIL; the storefront never shows this address on its own.
 */
export const defaultSupportEmail = 'support@shop.local';

export const contactLimits = { email: 254, phone: 30, hours: 120 } as const;

/** Digits, spaces and + ( ) - . only, with at least 7 digits: it also becomes a tel: link. */
export const supportPhonePattern = /^(?=(?:\D*\d){7})[0-9+().\s-]+$/;

const phoneText = z
  .string()
  .trim()
  .max(contactLimits.phone, `Support phone must be at most ${contactLimits.phone} characters`)
  .refine(
    (v) => v === '' || supportPhonePattern.test(v),
    'Support phone must be a phone number (digits, spaces and + ( ) - . only)',
  );
const hoursText = (day: 'Weekday' | 'Weekend') =>
  z.string().trim().max(contactLimits.hours, `${day} hours must be at most ${contactLimits.hours} characters`);

/** The admin's contact config, as stored and as sent to POST /api/config/contact. */
export const contactConfigSchema = z
  .object({
    supportEmail: z
      .string({ error: 'Support email is required' })
      .trim()
      .max(contactLimits.email, `Support email must be at most ${contactLimits.email} characters`)
      .pipe(z.email('Support email must be a valid email address')),
    supportPhone: phoneText.default(''),
    showPhone: z.boolean({ error: 'showPhone must be true or false' }).default(false),
    supportHours: z
      .object({
        weekday: hoursText('Weekday').default(''),
        weekend: hoursText('Weekend').default(''),
        showHours: z.boolean({ error: 'showHours must be true or false' }).default(false),
      })
      .default({ weekday: '', weekend: '', showHours: false }),
  })
  .superRefine((config, ctx) => {
    // What the public would see must exist: a shown phone or shown hours cannot be blank.
    if (config.showPhone && !config.supportPhone) {
      ctx.addIssue({
        code: 'custom',
        path: ['supportPhone'],
        message: 'Support phone is required when the phone is shown',
      });
    }
    if (config.supportHours.showHours) {
      if (!config.supportHours.weekday) {
        ctx.addIssue({
          code: 'custom',
          path: ['supportHours', 'weekday'],
          message: 'Weekday hours are required when the hours are shown',
        });
      }
      if (!config.supportHours.weekend) {
        ctx.addIssue({
          code: 'custom',
          path: ['supportHours', 'weekend'],
          message: 'Weekend hours are required when the hours are shown',
        });
      }
    }
  })
  .meta({ id: 'ContactConfig' });
export type ContactConfig = z.infer<typeof contactConfigSchema>;
export type ContactConfigInput = z.input<typeof contactConfigSchema>;

/** POST /api/config/contact answer. */
export const contactConfigSavedSchema = z.object({ success: z.literal(true), config: contactConfigSchema });
export type ContactConfigSaved = z.infer<typeof contactConfigSavedSchema>;

/** GET /api/config/contact/public: phone and hours are null while the admin hides them. */
export const publicContactConfigSchema = z
  .object({
    supportEmail: z.string(),
    supportPhone: z.string().nullable(),
    supportHours: z.object({ weekday: z.string(), weekend: z.string() }).nullable(),
  })
  .meta({ id: 'PublicContactConfig' });
export type PublicContactConfig = z.infer<typeof publicContactConfigSchema>;

/** The public view of a contact config. */
export function publicContactConfig(config: ContactConfig): PublicContactConfig {
  return {
    supportEmail: config.supportEmail,
    supportPhone: config.showPhone && config.supportPhone ? config.supportPhone : null,
    supportHours:
      config.supportHours.showHours && (config.supportHours.weekday || config.supportHours.weekend)
        ? { weekday: config.supportHours.weekday, weekend: config.supportHours.weekend }
        : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Support messages (storefront §3 support message, §7 POST /api/support; admin §3 entities, §7 calls)
// ---------------------------------------------------------------------------------------------

export const supportPaths = {
  /** POST (public): a visitor's message. GET (admin): the inbox with its summary. */
  messages: '/api/support',
  /** PATCH status/adminNotes, DELETE (admin). */
  message: (id: string) => `/api/support/${encodeURIComponent(id)}`,
  /** POST (admin): a reply in the conversation. */
  responses: (id: string) => `/api/support/${encodeURIComponent(id)}/responses`,
  /** POST (public, multipart): a return request. GET (admin): the returns list. */
  returns: '/api/returns',
  /** PATCH (admin): move a return to its next status. */
  returnItem: (id: string) => `/api/returns/${encodeURIComponent(id)}`,
  /** GET (admin): one photo of a return. */
  returnPhoto: (id: string, photoId: string) =>
    `/api/returns/${encodeURIComponent(id)}/photos/${encodeURIComponent(photoId)}`,
} as const;

export const supportLimits = {
  name: 120,
  email: 254,
  orderNumber: 40,
  subject: 200,
  message: 5000,
  adminNotes: 5000,
  response: 5000,
  authorName: 120,
  returnDescription: 2000,
} as const;

/** What the pages and the back office say (the spec's exact words where it gives them). */
export const supportTexts = {
  /** Storefront §8: any failure of POST /api/support. */
  sendFailed: 'Error submitting message. Please try again or contact us directly.',
  /** Storefront §9: the response promise. */
  responsePromise: 'We respond within 4 hours during business hours and within 24 hours on weekends.',
  /** Storefront §9: what happens after a return request. */
  returnPromise:
    'We email a prepaid return label within 24 hours. Returns are processed within 2-3 business days of arrival, and your refund or replacement follows within 3 days.',
  /** Admin §8. */
  fetchFailed: 'Failed to fetch messages',
  updateFailed: 'Failed to update status',
  responseFailed: 'Failed to send response',
  deleteFailed: 'Failed to delete message',
} as const;

/** The response promise in hours (storefront §9): 4 in business hours, 24 on weekends. */
export const supportResponseHours = { businessHours: 4, weekend: 24 } as const;
/** Returns (storefront §9): 30-day window, at most 5 photos of 10 MB each, images only. */
export const returnRules = {
  windowDays: 30,
  photosMax: 5,
  photoMaxBytes: 10 * 1024 * 1024,
  photoTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
} as const;

const trimmed = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
const emailField = z
  .string({ error: 'email is required' })
  .trim()
  .min(1, 'email is required')
  .max(supportLimits.email, `email must be at most ${supportLimits.email} characters`)
  .pipe(z.email('email must be a valid email address'));
const optionalOrderNumber = z
  .string()
  .trim()
  .max(supportLimits.orderNumber, `orderNumber must be at most ${supportLimits.orderNumber} characters`)
  .transform((v) => v.toUpperCase())
  .optional()
  .nullable()
  .transform((v) => v || undefined);

/** POST /api/support body (storefront §5: name, email, subject, message required; order number optional). */
export const supportMessageRequestSchema = z
  .object({
    name: trimmed('name', supportLimits.name),
    email: emailField,
    orderNumber: optionalOrderNumber,
    subject: trimmed('subject', supportLimits.subject),
    message: trimmed('message', supportLimits.message),
    priority: supportPrioritySchema.default('normal'),
  })
  .meta({ id: 'SupportMessageRequest' });
export type SupportMessageRequest = z.input<typeof supportMessageRequestSchema>;

/** POST /api/support answer: the server-made reference the visitor quotes. */
export const supportMessageCreatedSchema = z.object({
  success: z.literal(true),
  reference: z.string(),
  respondBy: z.string(),
});
export type SupportMessageCreated = z.infer<typeof supportMessageCreatedSchema>;

export const supportResponseSchema = z.object({
  id: z.string(),
  content: z.string(),
  isFromAdmin: z.boolean(),
  authorName: z.string(),
  timestamp: z.string(),
});
export type SupportResponse = z.infer<typeof supportResponseSchema>;

/** A message as the back office sees it (admin §3), plus reference, the deadline and whether it is overdue. */
export const supportMessageSchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    orderNumber: z.string().optional(),
    status: supportStatusSchema,
    priority: supportPrioritySchema,
    submittedDate: z.string(),
    lastUpdate: z.string(),
    adminNotes: z.string(),
    responses: z.array(supportResponseSchema),
    respondBy: z.string(),
    firstResponseAt: z.string().nullable(),
    overdue: z.boolean(),
  })
  .meta({ id: 'SupportMessage' });
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const supportSummarySchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  inProgress: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
  high: z.number().int(),
  urgent: z.number().int(),
  /** Unanswered past their respond-by deadline (not closed or resolved). */
  overdue: z.number().int(),
});
export type SupportSummary = z.infer<typeof supportSummarySchema>;

export const supportPageSizeMax = 100;
const pageFields = {
  page: z.coerce.number().int('page must be a whole number').min(1, 'page starts at 1').default(1),
  pageSize: z.coerce
    .number()
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(supportPageSizeMax, `pageSize can be at most ${supportPageSizeMax}`)
    .default(25),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
};
const allOr = <T extends z.ZodType>(schema: T) => z.union([z.literal('all'), schema]).optional();

/** GET /api/support query: paging, search (name, email, subject, message, order number, reference), filters. */
export const supportListQuerySchema = z.object({
  ...pageFields,
  status: allOr(supportStatusSchema),
  priority: allOr(supportPrioritySchema),
  overdue: z.enum(['true', 'false']).optional(),
});
export type SupportListQuery = z.input<typeof supportListQuerySchema>;

export const supportListSchema = z.object({
  success: z.literal(true),
  messages: z.array(supportMessageSchema),
  /** Over every message, not the filtered page. */
  summary: supportSummarySchema,
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type SupportList = z.infer<typeof supportListSchema>;

/** PATCH /api/support/{id}: a status, admin notes, or both. */
export const supportUpdateSchema = z
  .object({
    status: supportStatusSchema.optional(),
    adminNotes: z
      .string()
      .max(supportLimits.adminNotes, `adminNotes must be at most ${supportLimits.adminNotes} characters`)
      .optional(),
  })
  .refine((v) => v.status !== undefined || v.adminNotes !== undefined, 'Send a status or adminNotes to change');
export type SupportUpdate = z.infer<typeof supportUpdateSchema>;

export const supportMessageAnswerSchema = z.object({ success: z.literal(true), supportMessage: supportMessageSchema });

/** POST /api/support/{id}/responses (admin §5: cannot be empty after trimming). */
export const supportResponseRequestSchema = z.object({
  content: trimmed('content', supportLimits.response),
  isFromAdmin: z.boolean().default(true),
  authorName: z
    .string()
    .trim()
    .max(supportLimits.authorName, `authorName must be at most ${supportLimits.authorName} characters`)
    .optional(),
});
export type SupportResponseRequest = z.input<typeof supportResponseRequestSchema>;

export const supportDeletedSchema = z.object({ success: z.literal(true), id: z.string() });

// ---------------------------------------------------------------------------------------------
// Returns (storefront §3 return request, §5 returns form, §9 return constants)
// ---------------------------------------------------------------------------------------------
/** The text fields of POST /api/returns (multipart; photos are repeated `photos` file parts). */
export const returnRequestSchema = z
  .object({
    orderNumber: z
      .string({ error: 'orderNumber is required' })
      .trim()
      .min(1, 'orderNumber is required')
      .max(supportLimits.orderNumber, `orderNumber must be at most ${supportLimits.orderNumber} characters`)
      .transform((v) => v.toUpperCase()),
    email: emailField,
    reason: returnReasonSchema,
    itemCondition: returnConditionSchema,
    description: trimmed('description', supportLimits.returnDescription),
  })
  .meta({ id: 'ReturnRequest' });
export type ReturnRequest = z.input<typeof returnRequestSchema>;

export const returnCreatedSchema = z.object({
  success: z.literal(true),
  reference: z.string(),
  photos: z.number().int(),
});

export const returnPhotoSchema = z.object({
  id: z.string(),
  filename: z.string(),
  mimetype: z.string(),
  size: z.number().int(),
  url: z.string(),
});

export const returnRecordSchema = z
  .object({
    id: z.string(),
    reference: z.string(),
    orderNumber: z.string(),
    email: z.string(),
    customerName: z.string(),
    reason: returnReasonSchema,
    itemCondition: returnConditionSchema,
    description: z.string(),
    photos: z.array(returnPhotoSchema),
    status: returnStatusSchema,
    history: z.array(
      z.object({ status: returnStatusSchema, at: z.string(), by: z.string(), note: z.string().optional() }),
    ),
    requestedAt: z.string(),
    lastUpdate: z.string(),
  })
  .meta({ id: 'ReturnRecord' });
export type ReturnRecord = z.infer<typeof returnRecordSchema>;

export const returnListQuerySchema = z.object({ ...pageFields, status: allOr(returnStatusSchema) });
export type ReturnListQuery = z.input<typeof returnListQuerySchema>;
export const returnListSchema = z.object({
  success: z.literal(true),
  returns: z.array(returnRecordSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type ReturnList = z.infer<typeof returnListSchema>;

/** PATCH /api/returns/{id}: the next status, and an optional note for the customer's email. */
export const returnUpdateSchema = z.object({
  status: returnStatusSchema,
  note: z.string().trim().max(1000, 'note must be at most 1000 characters').optional(),
});
export type ReturnUpdate = z.input<typeof returnUpdateSchema>;
export const returnAnswerSchema = z.object({ success: z.literal(true), return: returnRecordSchema });
