// A service whose NATS is not up yet still answers /healthz, reports which dependency is missing on
// /readyz, and becomes ready by itself once NATS appears.
import { afterAll, expect, it } from 'vitest';
import { freePort, startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import { buildOrdersLike, eventually, type OrdersLikeService } from './helpers.js';

let mongo: StartedMongo | undefined;
let nats: StartedNats | undefined;
let service: OrdersLikeService | undefined;

afterAll(async () => {
  await service?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
});

it('waits for NATS while alive, and is ready once NATS is there', async () => {
  mongo = await startMongo();
  const natsPort = await freePort();
  ({ service } = await buildOrdersLike(mongo.uri, `nats://127.0.0.1:${natsPort}`));
  const port = await freePort();
  service.ctx.config.port = port;
  const starting = service.start();
  const url = `http://127.0.0.1:${port}`;

  const waiting = await eventually(async () => {
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { checks: { mongo: string; nats: string } };
    return res.status === 503 && body.checks.mongo === 'up' ? body : undefined;
  });
  expect(waiting).toEqual({ status: 'not_ready', checks: { mongo: 'up', nats: 'down' } });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);

  nats = await startNats({ port: natsPort });
  await starting;
  const res = await fetch(`${url}/readyz`);
  expect(res.status).toBe(200);
});
