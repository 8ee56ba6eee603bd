// Admin notification settings (admin §2 settings modal): one document in this service's database;
// until an administrator saves one, the address comes from ADMIN_NOTIFICATION_EMAIL and notifications are on.
import type { AdminSettings } from '@shop/contracts';
import type { ClientSession } from 'mongoose';
import type { EmailSettings } from './config.js';
import type { EmailModels } from './models/index.js';

export const adminSettingsId = 'admin';

export async function currentAdminSettings(
  AdminSettingsModel: EmailModels['AdminSettings'],
  settings: EmailSettings,
  session: ClientSession | null = null,
): Promise<AdminSettings> {
  const saved = await AdminSettingsModel.findById(adminSettingsId).session(session).lean();
  return {
    notificationEmail: saved?.notificationEmail ?? settings.adminNotificationEmail,
    emailNotificationsEnabled: saved?.emailNotificationsEnabled ?? true,
  };
}

export async function saveAdminSettings(
  AdminSettingsModel: EmailModels['AdminSettings'],
  next: AdminSettings,
): Promise<AdminSettings> {
  await AdminSettingsModel.updateOne(
    { _id: adminSettingsId },
    { $set: { notificationEmail: next.notificationEmail, emailNotificationsEnabled: next.emailNotificationsEnabled } },
    { upsert: true },
  );
  return next;
}
