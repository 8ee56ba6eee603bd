// Builds the email service (testable without listening): The outgoing email queue over SMTP, templates, admin notification settings and email diagnostics.
// Its routes, models and event handlers arrive with their features; the service kit already gives it
// health, readiness, OpenAPI, its info route GET /api/email/_service and the outbox.
import { readFileSync } from 'node:fs';
import { createService, type ServiceConfig, type ServiceDefinition } from '@shop/service-kit';
import { loadConfig } from './config.js';

// package.json sits one level above both src/ and dist/.
export const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function buildApp(config: ServiceConfig = loadConfig(), testHooks: Pick<ServiceDefinition<unknown>, 'logDestination'> = {}) {
  return createService({
    name: 'email',
    version,
    config,
    openapi: {
      title: 'Shop email service',
      description: 'The outgoing email queue over SMTP, templates, admin notification settings and email diagnostics.',
    },
    ...testHooks,
  });
}
