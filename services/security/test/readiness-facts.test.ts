// The security service's facts for the production check (GET /readyz/facts, service kit): which admins
// still sign in with the documented development password, and whether the session cookie is Secure.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessFactsPath, readinessFactsSchema } from '@shop/contracts';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildApp } from '../src/app.js';
import { devAdmin, loadConfig, type RawSecurityEnv } from '../src/config.js';
import { hashPassword } from '../src/domain/password.js';

let mongo: StartedMongo;
let nats: StartedNats;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
});
afterAll(async () => {
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

/** Every log line of the services factsOf started. */
const logLines: string[] = [];
const logDestination = new Writable({ write: (chunk, _encoding, done) => (logLines.push(String(chunk)), done()) });

async function factsOf(env: RawSecurityEnv, before?: (service: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) {
  const service = await buildApp(
    loadConfig({ PORT: '0', MONGO_URL: mongo.uri, NATS_URL: nats.url, LOG_LEVEL: 'info', ...env }),
    { logDestination },
  );
  const url = await service.start();
  try {
    await before?.(service);
    return readinessFactsSchema.parse(await (await fetch(`${url}${readinessFactsPath}`)).json());
  } finally {
    await service.stop();
  }
}

describe('security readiness facts', () => {
  it('names the admin still on the development password, and the cookie not Secure outside production', async () => {
    const facts = await factsOf({});
    expect(facts.own).toEqual({ cookieSecure: false, devPasswordAdmins: ['admin@shop.local'] });
    expect(facts.mongo.replicaSet).toEqual(expect.any(String));
    // The first admin's creation is logged, naming where the password is documented, never the password.
    expect(logLines.join('')).toContain('first admin created with the documented development password');
    expect(logLines.join('')).not.toContain(devAdmin.password);
  });

  it('names nobody once that admin has a password of its own, and reports a Secure cookie', async () => {
    const facts = await factsOf({ SESSION_COOKIE_SECURE: 'true' }, async (service) => {
      await service.ctx.models.AdminUser.updateOne(
        { email: devAdmin.email },
        { $set: { passwordHash: await hashPassword('Brass-Coin-Vault-42!') } },
      );
    });
    expect(facts.own).toEqual({ cookieSecure: true, devPasswordAdmins: [] });
  });
});
