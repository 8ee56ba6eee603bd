// The shop's public contact details (storefront §3 public contact config, §7 GET
// /api/config/contact/public, §8 "Contact config load failure is only logged"): what an administrator
// maintains in the back office. Pages that name an address or phone read them here, never a constant
// of their own. When the call fails it is logged and pages point to the quote email the customer already
// has: the browser knows no real address of its own (the spec's built-in default would be made up).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { contactConfigPaths, publicContactConfigSchema, type PublicContactConfig } from '@shop/contracts';
import { request, type HttpResult } from './http.js';

export type { PublicContactConfig };

/** The answer of GET /api/config/contact/public, or an Error saying why it cannot be used. */
export function contactFromAnswer(result: HttpResult<unknown>): PublicContactConfig {
  if (!result.ok) throw new Error(`Contact config could not be loaded: ${result.error ?? `HTTP ${result.status}`}`);
  const parsed = publicContactConfigSchema.safeParse(result.data);
  if (!parsed.success || !parsed.data.supportEmail)
    throw new Error('Contact config could not be loaded: unexpected answer');
  const { supportEmail, supportPhone, supportHours } = parsed.data;
  return { supportEmail, supportPhone: supportPhone?.trim() || null, supportHours };
}

export async function loadPublicContact(): Promise<PublicContactConfig> {
  return contactFromAnswer(await request<unknown>(contactConfigPaths.public));
}

// telHref lives in phone.ts (the home page needs it without this module's schema).
export { telHref } from './phone.js';

/**
 * The contact details for a page: `undefined` while loading (so no address flashes and changes), then
 * the admin's details, or `null` once the call failed (the failure is only logged).
 */
export function useShopContact(): PublicContactConfig | null | undefined {
  const contact = useQuery({ queryKey: ['contact-public'], queryFn: loadPublicContact, staleTime: 5 * 60_000 });
  useEffect(() => {
    if (contact.isError) console.error(contact.error.message);
  }, [contact.isError, contact.error]);
  if (contact.isError) return null;
  return contact.data;
}
