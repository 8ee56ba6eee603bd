// The orders service boots against the embedded MongoDB and a real nats-server, is ready, and exposes what
// it promises; its real main.ts starts and stops gracefully on SIGTERM (checks shared by every service).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { describeServiceBasics } from '@shop/service-kit/testing';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp, version } from '../src/app.js';
import { loadConfig } from '../src/config.js';

let mongo: StartedMongo;
let nats: StartedNats;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
});

afterAll(async () => {
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

describeServiceBasics({
  name: 'orders',
  packageDir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  version,
  buildApp: (config) => buildApp(config),
  loadConfig,
  deps: () => ({ mongoUri: mongo.uri, natsUrl: nats.url }),
  freePort,
  openApiPaths: [
    '/api/orders',
    '/api/orders/track',
    '/api/orders/history',
    '/api/orders/{id}',
    '/api/orders/{id}/status',
    '/api/upload',
    '/api/upload/{id}',
    '/api/ai/generate-design',
    '/api/ai/designs/{id}/image',
  ],
});
