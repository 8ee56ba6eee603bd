// Verification codes: 6 random digits from the OS's CSPRNG; only a keyed hash is stored, compared in
// constant time.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { limits } from '@shop/contracts';

export function newCode(): string {
  return String(randomInt(0, 10 ** limits.verificationCodeDigits)).padStart(limits.verificationCodeDigits, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/** The email is part of the hashed text, so a hash copied onto another address's record does not match. */
export function hashCode(secret: string, salt: string, email: string, code: string): string {
  return createHmac('sha256', secret).update(`${salt}:${email}:${code}`).digest('base64url');
}

export function codeMatches(secret: string, salt: string, email: string, code: string, storedHash: string): boolean {
  const actual = Buffer.from(hashCode(secret, salt, email, code));
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** "Jordan Lee Smith" -> first "Jordan", last "Lee Smith" (the order flow asks for the two fields). */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}
