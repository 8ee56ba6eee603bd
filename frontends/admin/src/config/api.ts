// The Site configuration view's calls (admin part A §7): GET/POST /api/config/contact (support service)
// and GET/POST /api/config/business (payments service). Both answers are checked with the contracts.
import {
  businessConfigPaths,
  businessConfigSavedSchema,
  businessConfigSchema,
  contactConfigPaths,
  contactConfigSavedSchema,
  contactConfigSchema,
  type BusinessConfig,
  type ContactConfig,
} from '@shop/contracts';
import { adminFetch } from '../api.js';

export const configKeys = { contact: ['config', 'contact'] as const, business: ['config', 'business'] as const };

export async function fetchContactConfig(signal?: AbortSignal): Promise<ContactConfig> {
  return contactConfigSchema.parse(await adminFetch(contactConfigPaths.admin, { signal }));
}

export async function saveContactConfig(config: ContactConfig): Promise<ContactConfig> {
  return contactConfigSavedSchema.parse(await adminFetch(contactConfigPaths.admin, { method: 'POST', json: config }))
    .config;
}

export async function fetchBusinessConfig(signal?: AbortSignal): Promise<BusinessConfig> {
  return businessConfigSchema.parse(await adminFetch(businessConfigPaths.admin, { signal }));
}

export async function saveBusinessConfig(config: BusinessConfig): Promise<BusinessConfig> {
  return businessConfigSavedSchema.parse(await adminFetch(businessConfigPaths.admin, { method: 'POST', json: config }))
    .config;
}

/** Spec §8: the one message of a failed save (the server's reason is shown under it). */
export const saveFailedMessage = 'Error saving configuration. Please try again.';
/** Spec §9: the saved indicator stays this long. */
export const savedIndicatorMs = 3_000;
