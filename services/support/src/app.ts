// Builds the support service (testable without listening): Support messages from visitors and the admin replies, returns, and the public contact configuration.
// Its routes, models and event handlers arrive with their features; the service kit already gives it
// health, readiness, OpenAPI, its info route GET /api/support/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceConfig, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig } from './config.js';

// package.json sits one level above both src/ and dist/.
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function buildApp(config: ServiceConfig = loadConfig(), testHooks: Pick<ServiceDefinition<unknown>, 'logDestination'> = {}) {
  return createService({
    name: 'support',
    version,
    config,
    openapi: {
      title: 'Shop support service',
      description: 'Support messages from visitors and the admin replies, returns, and the public contact configuration.',
    },
    ...testHooks,
  });
}
