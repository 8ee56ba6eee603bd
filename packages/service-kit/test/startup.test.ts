// A service started before its dependencies: /healthz answers at once; its API answers 503 at once
// until MongoDB is there (not after the gateway's upstream timeout), then answers without NATS; /readyz
// says which dependency is missing, and the service becomes ready by itself once NATS appears.
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

it('answers 503 until MongoDB is there, waits for NATS while alive, and is ready once NATS is there', async () => {
  const [mongoPort, natsPort, port] = [await freePort(), await freePort(), await freePort()];
  ({ service } = await buildOrdersLike(
    `mongodb://127.0.0.1:${mongoPort}/?replicaSet=rs0`,
    `nats://127.0.0.1:${natsPort}`,
  ));
  service.ctx.config.port = port;
  const starting = service.start();
  const url = `http://127.0.0.1:${port}`;

  await eventually(async () =>
    (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200 ? true : undefined,
  );
  const early = await fetch(`${url}/teapot`);
  expect(early.status).toBe(503);
  expect(early.headers.get('retry-after')).toBe('1');
  expect(await early.json()).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    error: 'The orders service is starting. Try again in a moment.',
  });

  mongo = await startMongo({ port: mongoPort });
  const waiting = await eventually(async () => {
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { checks: { mongo: string; nats: string } };
    return res.status === 503 && body.checks.mongo === 'up' ? body : undefined;
  });
  expect(waiting).toEqual({ status: 'not_ready', checks: { mongo: 'up', nats: 'down' } });
  // MongoDB is there: the API answers as its routes say, NATS or not.
  await eventually(async () => ((await fetch(`${url}/teapot`)).status === 409 ? true : undefined));

  nats = await startNats({ port: natsPort });
  await starting;
  const res = await fetch(`${url}/readyz`);
  expect(res.status).toBe(200);
});
