// Fills an SMS template's placeholders ({name}, {orderNumber}, {amount}, {trackingNumber}) from the
// event that triggered it. Unknown placeholders stay as typed; a missing value becomes empty.
import { formatMoney } from '@shop/contracts';

export interface SmsValues {
  name?: string | undefined;
  orderNumber?: string | undefined;
  amount?: number | undefined;
  trackingNumber?: string | undefined;
}

export function renderSms(content: string, values: SmsValues): string {
  const first = values.name?.trim().split(/\s+/)[0] ?? '';
  const table: Record<string, string> = {
    name: first,
    orderNumber: values.orderNumber ?? '',
    amount: values.amount !== undefined ? formatMoney(values.amount) : '',
    trackingNumber: values.trackingNumber ?? '',
  };
  return content.replace(/\{(name|orderNumber|amount|trackingNumber)\}/g, (_, key: string) => table[key] ?? '').trim();
}

/** A phone number in E.164 for the provider: digits with a leading +; a 10-digit number is taken as US. */
export function e164(phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '');
  if (/^\+[1-9]\d{6,14}$/.test(digits)) return digits;
  const bare = digits.replace(/\+/g, '');
  if (bare.length === 10) return `+1${bare}`;
  if (bare.length === 11 && bare.startsWith('1')) return `+${bare}`;
  return undefined;
}
