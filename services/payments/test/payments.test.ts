// The payments service boots against the embedded MongoDB and a real nats-server, is ready, and exposes what
// it promises; its real main.ts starts and stops gracefully on SIGTERM (checks shared by every service).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentPaths } from '@shop/contracts';
import { describeServiceBasics, spawnServiceProcess, testGatewayKey } from '@shop/service-kit/testing';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp, version } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { stripeKeys } from './support/keys.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let mongo: StartedMongo;
let nats: StartedNats;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
});

afterAll(async () => {
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

describeServiceBasics({
  name: 'payments',
  packageDir,
  version,
  buildApp: (config) => buildApp(config),
  loadConfig,
  deps: () => ({ mongoUri: mongo.uri, natsUrl: nats.url }),
  freePort,
  openApiPaths: Object.values(paymentPaths),
});

describe('payments in production (its real main.ts)', () => {
  it('refuses to start without Stripe: a shop in production takes no pretend payments', async () => {
    const start = spawnServiceProcess({
      packageDir,
      env: {
        PORT: String(await freePort()),
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        GATEWAY_SIGNING_KEY: testGatewayKey(),
      },
      readyTimeoutMs: 30_000,
    });
    await expect(start).rejects.toThrow(
      /exited with 1[\s\S]*STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are required when NODE_ENV=production/,
    );
  });

  it('starts in Stripe mode with the three keys', async () => {
    const child = await spawnServiceProcess({
      packageDir,
      env: {
        PORT: String(await freePort()),
        MONGO_URL: mongo.uri,
        NATS_URL: nats.url,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        GATEWAY_SIGNING_KEY: testGatewayKey(),
        ...stripeKeys,
        STRIPE_API_URL: 'http://127.0.0.1:9',
      },
    });
    try {
      const config = await (await fetch(`${child.url}${paymentPaths.config}`)).json();
      expect(config).toEqual({ success: true, mode: 'stripe', publishableKey: stripeKeys.STRIPE_PUBLISHABLE_KEY });
    } finally {
      expect(await child.stop('SIGTERM')).toBe(0);
    }
  });
});
