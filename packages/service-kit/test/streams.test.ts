// Seven services start at once against one fresh nats-server: ensuring the streams must not fail
// for the ones that lose the race, and the streams must end up as the contracts describe them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { eventStreams, limits } from '@shop/contracts';
import { startNats, type StartedNats } from '@shop/test-support';
import { createLogger, ensureAllStreams, loadServiceConfig } from '../src/index.js';
import { ensureStream } from '../src/bus/streams.js';

let nats: StartedNats;
beforeAll(async () => {
  nats = await startNats();
});
afterAll(async () => {
  await nats?.stop();
});

it('lets several services ensure the same streams concurrently', async () => {
  const log = createLogger({ service: 'orders', level: 'silent' });
  const connections = await Promise.all(Array.from({ length: 7 }, () => connect({ servers: nats.url })));
  try {
    const managers = await Promise.all(connections.map((nc) => jetstreamManager(nc)));
    await Promise.all(managers.map((jsm) => ensureAllStreams(jsm, log)));
    for (const [name, def] of Object.entries(eventStreams)) {
      const info = await managers[0].streams.info(name);
      expect(info.config.subjects).toEqual([...def.subjects]);
      expect(info.config.storage).toBe('file');
      expect(info.config.duplicate_window).toBe(2 * 60 * 1e9);
      expect(info.config.max_age).toBe(def.maxAgeMs * 1e6);
    }
  } finally {
    await Promise.all(connections.map((nc) => nc.close()));
  }
});

it('keeps verification codes only minutes: CUSTOMERS has a max age just past the code life', () => {
  const codeLifeMs = limits.verificationCodeTtlMinutes * 60_000;
  expect(eventStreams.CUSTOMERS.maxAgeMs).toBeGreaterThan(codeLifeMs);
  expect(eventStreams.CUSTOMERS.maxAgeMs).toBeLessThanOrEqual(codeLifeMs + 5 * 60_000);
});

it('brings an existing stream (a deployment with the old 7-day CUSTOMERS) to the defined max age, keeping its messages', async () => {
  const log = createLogger({ service: 'customers', level: 'silent' });
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete('CUSTOMERS').catch(() => undefined);
    await jsm.streams.add({
      name: 'CUSTOMERS',
      subjects: ['customer.>'],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(7 * 24 * 3600 * 1000),
      duplicate_window: nanos(2 * 60 * 1000),
      num_replicas: 1,
    });
    await jetstream(nc).publish('customer.verification_requested', '{}');

    await ensureStream(jsm, 'CUSTOMERS', log);
    const info = await jsm.streams.info('CUSTOMERS');
    expect(info.config.max_age).toBe(nanos(eventStreams.CUSTOMERS.maxAgeMs));
    expect(info.config.max_age).toBeLessThan(nanos(24 * 3600 * 1000));
    // Updated in place, not recreated: what the stream holds stays (until its new max age).
    expect(info.state.messages).toBe(1);
  } finally {
    await nc.close();
  }
});

it('takes the stream replicas from NATS_STREAM_REPLICAS: 1 on one server unless set, never 0', () => {
  const load = (NATS_STREAM_REPLICAS?: string) => loadServiceConfig({ NATS_STREAM_REPLICAS }, { port: 0 });
  expect(load().natsStreamReplicas).toBe(1);
  expect(load('3').natsStreamReplicas).toBe(3);
  expect(() => load('0')).toThrow(/NATS_STREAM_REPLICAS/);
});
