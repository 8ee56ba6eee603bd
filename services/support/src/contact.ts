// The contact config (admin §2 Contact & Support, storefront §3 public contact config): one document;
// until an administrator saves one, the email (and phone, if configured) come from the environment,
// the phone is shown only when configured and no hours are shown.
import type { ContactConfig } from '@shop/contracts';
import type { ContactDefaults } from './config.js';
import type { SupportModels } from './models/index.js';

export const contactConfigId = 'contact';

export function defaultContactConfig(defaults: ContactDefaults): ContactConfig {
  return {
    supportEmail: defaults.supportEmail,
    supportPhone: defaults.supportPhone,
    showPhone: defaults.supportPhone !== '',
    supportHours: { weekday: '', weekend: '', showHours: false },
  };
}

export async function currentContactConfig(
  ContactConfigModel: SupportModels['ContactConfig'],
  defaults: ContactDefaults,
): Promise<ContactConfig> {
  const saved = await ContactConfigModel.findById(contactConfigId).lean();
  if (!saved) return defaultContactConfig(defaults);
  return {
    supportEmail: saved.supportEmail,
    supportPhone: saved.supportPhone ?? '',
    showPhone: saved.showPhone ?? false,
    supportHours: {
      weekday: saved.supportHours?.weekday ?? '',
      weekend: saved.supportHours?.weekend ?? '',
      showHours: saved.supportHours?.showHours ?? false,
    },
  };
}

/** Replaces the whole config (the admin form sends all of it); the input is already validated. */
export async function saveContactConfig(
  ContactConfigModel: SupportModels['ContactConfig'],
  next: ContactConfig,
  updatedBy: string | null,
): Promise<ContactConfig> {
  await ContactConfigModel.updateOne({ _id: contactConfigId }, { $set: { ...next, updatedBy } }, { upsert: true });
  return next;
}
