// Seven services start at once against one fresh nats-server: ensuring the streams must not fail
// for the ones that lose the race, and the streams must end up as the contracts describe them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { eventStreams } from '@shop/contracts';
import { startNats, type StartedNats } from '@shop/test-support';
import { createLogger, ensureAllStreams } from '../src/index.js';

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
      const info = await managers[0]!.streams.info(name);
      expect(info.config.subjects).toEqual([...def.subjects]);
      expect(info.config.storage).toBe('file');
      expect(info.config.duplicate_window).toBe(2 * 60 * 1e9);
    }
  } finally {
    await Promise.all(connections.map((nc) => nc.close()));
  }
});
