// What counts as a strong admin password. Checked at start in production (ADMIN_PASSWORD) so the shop
// never goes live with a guessable back-office password.

/** Passwords (lower case) seen at the top of every breach list; refused whatever their length. */
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'admin',
  'admin123',
  'administrator',
  'changeme',
  'letmein',
  'welcome',
  'welcome1',
  'qwerty',
  'qwerty123',
  '123456',
  '12345678',
  '123456789',
  '1234567890',
  'iloveyou',
  'secret',
  'shopadmin',
  'admin@123',
  'p@ssw0rd',
  'p@ssword1',
]);

export const minimumPasswordLength = 12;

/** Why a password is weak, in words a person can act on, or undefined when it is strong enough. */
export function passwordWeakness(password: string, email?: string): string | undefined {
  if (password.length < minimumPasswordLength) return `it must be at least ${minimumPasswordLength} characters long`;
  const lower = password.toLowerCase();
  // 'Password1234' and 'Admin123!' are the common ones with digits and symbols added.
  if (COMMON.has(lower) || COMMON.has(lower.replace(/[^a-z0-9@]/g, '')) || COMMON.has(lower.replace(/[^a-z]+$/, '')))
    return 'it is one of the most common passwords';
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 3) return 'it must mix at least three of: lower-case letters, upper-case letters, digits, symbols';
  if (new Set(password).size < 6) return 'it repeats too few different characters';
  const local = email?.split('@')[0]?.toLowerCase();
  if (local && local.length >= 4 && lower.includes(local)) return 'it must not contain the email address';
  return undefined;
}
