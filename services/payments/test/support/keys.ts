// Stripe keys of the tests (shaped like real ones; they only ever reach the local fake).
export const stripeKeys = {
  STRIPE_SECRET_KEY: 'sk_test_payments_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_payments_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_payments_fake_secret',
} as const;
