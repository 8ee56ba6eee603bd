// HTTP shapes of the support service's contact details (storefront §3 public contact config, §7
// GET /api/config/contact/public; admin §2 Contact & Support settings, §3 contact config, §7 calls).
// Administrators maintain one contact config; the public sees the email always, the phone only while
// showPhone is on and the hours only while showHours is on (null otherwise, never an empty string).
import { z } from 'zod';

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
  .refine((v) => v === '' || supportPhonePattern.test(v), 'Support phone must be a phone number (digits, spaces and + ( ) - . only)');
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
      ctx.addIssue({ code: 'custom', path: ['supportPhone'], message: 'Support phone is required when the phone is shown' });
    }
    if (config.supportHours.showHours) {
      if (!config.supportHours.weekday) {
        ctx.addIssue({ code: 'custom', path: ['supportHours', 'weekday'], message: 'Weekday hours are required when the hours are shown' });
      }
      if (!config.supportHours.weekend) {
        ctx.addIssue({ code: 'custom', path: ['supportHours', 'weekend'], message: 'Weekend hours are required when the hours are shown' });
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
