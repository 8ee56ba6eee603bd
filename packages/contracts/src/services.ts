// The seven services, their default ports (COMMON contract) and the public info route each one serves.
import { z } from 'zod';

export const serviceNames = ['orders', 'payments', 'customers', 'support', 'marketing', 'security', 'email'] as const;
export const serviceNameSchema = z.enum(serviceNames);
export type ServiceName = z.infer<typeof serviceNameSchema>;

/** Anything that can be the `source` of an event: a service or the gateway. */
export const eventSourceSchema = z.enum([...serviceNames, 'gateway']);
export type EventSource = z.infer<typeof eventSourceSchema>;

export const defaultServicePorts: Record<ServiceName, number> = {
  orders: 4101,
  payments: 4102,
  customers: 4103,
  support: 4104,
  marketing: 4105,
  security: 4106,
  email: 4107,
};
export const defaultGatewayPort = 8080;

/** Gateway env var holding each service's base URL (COMMON contract). */
export const serviceUrlEnv: Record<ServiceName, string> = {
  orders: 'ORDERS_URL',
  payments: 'PAYMENTS_URL',
  customers: 'CUSTOMERS_URL',
  support: 'SUPPORT_URL',
  marketing: 'MARKETING_URL',
  security: 'SECURITY_URL',
  email: 'EMAIL_URL',
};

/**
 * Every service answers `GET /api/<service>/_service` with its name and version. It sits under the
 * service's own public prefix so the gateway's routing table reaches it without a special case.
 */
export const serviceInfoPath = (service: ServiceName) => `/api/${service}/_service` as const;
