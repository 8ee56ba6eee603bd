// HTTP shapes of the email service: the queue's states and templates, the admin notification settings
// (admin §2 settings modal, §3 Admin settings) and the development mailbox (the local SMTP server's
// messages, read by developers and browser tests; never in production).
import { z } from 'zod';

/** Life of a queued email: queued -> sending -> sent, or back to queued for a retry, or failed. */
export const emailStatuses = ['queued', 'sending', 'sent', 'failed'] as const;
export const emailStatusSchema = z.enum(emailStatuses);
export type EmailStatus = z.infer<typeof emailStatusSchema>;

/** The emails the shop writes; the name is stored with each queued email and carried by email.sent. */
export const emailTemplates = [
  'order_confirmation',
  'admin_new_order',
  'verification_code',
  'test',
  // Back-office order emails (admin part A order modals): quote with payment link, more-information
  // request, status update, and a message the admin wrote.
  'order_quote',
  'order_info_request',
  'order_status_update',
  'order_admin_message',
  // Quote payment: the customer's payment receipt and the team's notice of a payment (order.paid).
  'order_payment_receipt',
  'admin_payment_received',
  // The team's notice of a payment taken that does not pay its order and must be refunded (payment.refund_due).
  'admin_refund_due',
  // Marketing: one campaign email to one subscriber (campaign.send_requested).
  'campaign',
  // Support desk and returns (issue 12): the visitor's confirmation, the team's notice, an admin reply,
  // a return's confirmation, the team's notice of a return, and each return status change.
  'support_confirmation',
  'support_admin_notice',
  'support_reply',
  'return_confirmation',
  'return_admin_notice',
  'return_status_update',
  // Security management: the team's notice of a high or critical security alert (alert.raised).
  'security_alert',
] as const;
export const emailTemplateSchema = z.enum(emailTemplates);
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

/** The emails to the shop's team, not to a customer: never part of a customer's order email history. */
export const teamEmailTemplates: ReadonlySet<string> = new Set<EmailTemplate>([
  'admin_new_order',
  'admin_payment_received',
  'admin_refund_due',
  'support_admin_notice',
  'return_admin_notice',
  'security_alert',
]);

export const adminSettingsSchema = z
  .object({
    notificationEmail: z.email('Notification email must be a valid email address'),
    emailNotificationsEnabled: z.boolean(),
  })
  .meta({ id: 'AdminSettings' });
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

export const mailboxMessageSchema = z
  .object({
    id: z.string(),
    from: z.string(),
    to: z.array(z.string()),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    date: z.string(),
    receivedAt: z.string(),
    messageId: z.string().optional(),
  })
  .meta({ id: 'MailboxMessage' });
export type MailboxMessage = z.infer<typeof mailboxMessageSchema>;

export const mailboxQuerySchema = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1, 'limit must be at least 1')
    .max(1000)
    .optional(),
});

export const mailboxListSchema = z
  .object({ messages: z.array(mailboxMessageSchema), total: z.number().int().nonnegative() })
  .meta({ id: 'MailboxList' });
export type MailboxList = z.infer<typeof mailboxListSchema>;
