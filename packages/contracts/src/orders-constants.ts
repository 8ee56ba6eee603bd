// Constants of the orders service's public HTTP shapes without zod (orders-http.ts re-exports them): the
// storefront's first screen needs them, and with "sideEffects": false (package.json) a browser bundle
// takes this file without zod.

/** Header that makes a retried submit return the same order. */
export const idempotencyKeyHeader = 'idempotency-key';

export const trackOrderNotFoundMessage = 'Order not found. Please check your order number and email address.';
export const trackMissingFieldsMessage = 'Please enter both order number and email address.';
