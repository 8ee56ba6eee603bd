// Phone links, apart from contact.ts: the home page shows the site content's phone and must not bring
// the contact config's schema (zod) into its first load.

/** A tel: link for a phone as the admin typed it ("+1 (512) 555-0199" -> "tel:+15125550199"). */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  return `tel:${digits.startsWith('+') ? `+${digits.slice(1).replace(/\+/g, '')}` : digits.replace(/\+/g, '')}`;
}
