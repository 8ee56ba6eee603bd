// JetStream streams, ensured at start by every service (idempotent, safe when several start at once).
// File storage and a dedupe window: a message id seen within the window is stored only once. An existing
// stream is brought to the contract's subjects and max age (a deployment keeps its streams across
// releases, so a shorter max age must reach the stream that is already there).
import { nanos } from '@nats-io/nats-core';
import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { eventStreams, type StreamName } from '@shop/contracts';
import type { Logger } from '../logger.js';

export const duplicateWindowMs = 2 * 60 * 1000;

/** `replicas` undefined (the gateway): 1 when creating, an existing stream's replicas left as they are. */
export async function ensureStream(jsm: JetStreamManager, name: StreamName, log: Logger, replicas?: number) {
  const def = eventStreams[name];
  const config = {
    name,
    subjects: [...def.subjects],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(def.maxAgeMs),
    duplicate_window: nanos(duplicateWindowMs),
    num_replicas: replicas ?? 1,
  };
  try {
    const info = await jsm.streams.info(name);
    const sameSubjects =
      info.config.subjects.length === config.subjects.length &&
      config.subjects.every((s) => info.config.subjects.includes(s));
    const sameMaxAge = info.config.max_age === config.max_age;
    const sameReplicas = replicas === undefined || info.config.num_replicas === replicas;
    if (!sameSubjects || !sameMaxAge || !sameReplicas) {
      await jsm.streams.update(name, {
        ...info.config,
        subjects: config.subjects,
        max_age: config.max_age,
        num_replicas: replicas ?? info.config.num_replicas,
      });
      log.info(
        {
          stream: name,
          subjects: config.subjects,
          maxAgeMs: def.maxAgeMs,
          previousMaxAgeMs: info.config.max_age / 1e6,
          replicas: replicas ?? info.config.num_replicas,
        },
        'stream updated to its definition',
      );
    }
    return;
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
  }
  try {
    await jsm.streams.add(config);
    log.info({ stream: name, subjects: config.subjects }, 'stream created');
  } catch (err) {
    // Another service created it between our info and add: fine once it exists. nats-server answers
    // "already in use", or "subjects overlap" when its overlap check meets the new stream first.
    if (err instanceof JetStreamApiError && /already in use|subjects overlap/i.test(err.message)) {
      const created = await jsm.streams.info(name).catch(() => null);
      if (created) return;
    }
    throw err;
  }
}

export async function ensureAllStreams(jsm: JetStreamManager, log: Logger, replicas?: number) {
  for (const name of Object.keys(eventStreams) as StreamName[]) await ensureStream(jsm, name, log, replicas);
}
