/** The seven services and the gateway, with the default ports fixed in the shared contracts. */
export interface Part {
  /** Short name used for log prefixes and `{name}_URL` env vars. */
  name: string;
  /** Folder inside the repository. */
  dir: string;
  /** Default port (what `npm start` uses when it is free). */
  port: number;
}

export const SERVICES: readonly Part[] = [
  { name: 'orders', dir: 'services/orders', port: 4101 },
  { name: 'payments', dir: 'services/payments', port: 4102 },
  { name: 'customers', dir: 'services/customers', port: 4103 },
  { name: 'support', dir: 'services/support', port: 4104 },
  { name: 'marketing', dir: 'services/marketing', port: 4105 },
  { name: 'security', dir: 'services/security', port: 4106 },
  { name: 'email', dir: 'services/email', port: 4107 },
];

export const GATEWAY: Part = { name: 'gateway', dir: 'gateway', port: 8080 };

/** The Module Federation apps; `npm run dev` starts their rspack dev servers. */
export const FRONTENDS = ['shell', 'storefront', 'admin'] as const;
export type FrontendName = (typeof FRONTENDS)[number];

/** Env var through which the gateway finds a service: orders -> ORDERS_URL. */
export function serviceUrlVar(name: string): string {
  return `${name.toUpperCase()}_URL`;
}
