// The returning-customer lookup's texts without zod (customers-http.ts re-exports them): the storefront's
// first screen needs them, and with "sideEffects": false (package.json) a browser bundle takes this file
// without zod.

/** Every text the lookup can answer with, in the shop's words. */
export const customerLookupMessages = {
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  codeRequired: 'Please enter the 6-digit verification code from your email',
  codeFormat: 'Verification code must be 6 digits',
  notFound: 'No orders found for this email address. You can still place an order as a new customer!',
  codeSent: 'We sent a 6-digit verification code to your email. It is valid for 10 minutes.',
  invalidCode: 'Invalid verification code. Please check your email and try again.',
  codeLocked: 'Too many incorrect attempts. Please request a new verification code.',
  codeExpired: 'This verification code has expired. Please request a new verification code.',
  noPendingCode: 'There is no active verification code for this email address. Please request a new verification code.',
  tooManyLookupsForEmail:
    'Too many verification codes were requested for this email address. Please wait {minutes} minutes and try again.',
  tooManyLookupsFromAddress: 'Too many lookups from your network. Please wait {minutes} minutes and try again.',
  tooManyVerifications:
    'Too many verification attempts from your network. Please wait {minutes} minutes and try again.',
  verified: 'Welcome back, {name}! Your saved details have been filled in.',
} as const;

/** Tries a code allows before it is locked (the spec's "at most 5 tries"). */
export const verificationMaxAttempts = 5;
