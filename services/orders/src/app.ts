// Builds the orders service (testable without listening): Quote requests and orders: the order flow, uploads (GridFS), AI designs, tracking, and the back-office order tools.
// Its routes, models and event handlers arrive with their features; the service kit already gives it
// health, readiness, OpenAPI, its info route GET /api/orders/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceConfig, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig } from './config.js';

// package.json sits one level above both src/ and dist/.
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function buildApp(config: ServiceConfig = loadConfig(), testHooks: Pick<ServiceDefinition<unknown>, 'logDestination'> = {}) {
  return createService({
    name: 'orders',
    version,
    config,
    openapi: {
      title: 'Shop orders service',
      description: 'Quote requests and orders: the order flow, uploads (GridFS), AI designs, tracking, and the back-office order tools.',
    },
    ...testHooks,
  });
}
