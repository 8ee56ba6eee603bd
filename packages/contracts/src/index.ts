// @shop/contracts: zod schemas and inferred types shared by services, gateway and frontends.
// Browser-safe: no Node imports anywhere in this package.
export * from './catalog.js';
export * from './address.js';
export * from './rules.js';
export * from './services.js';
export * from './http.js';
export * from './events.js';
export * from './rpc.js';
export * from './pricing.js';
export * from './admin-auth.js';
export * from './orders-http.js';
export * from './customers-http.js';
export * from './customers-admin-http.js';
export * from './email-http.js';
export * from './orders-admin-http.js';
export * from './payments.js';
export * from './support-http.js';
export * from './business-config.js';
export * from './operations-http.js';
export * from './support-events.js';
export * from './marketing-http.js';
export * from './marketing-events.js';
export * from './money.js';
export * from './discounts.js';
export * from './content.js';
export * from './security-events.js';
export * from './security-http.js';
