// GET /readyz/facts: what a service tells the gateway's production-readiness check about itself (its
// database is a replica set, its outbox backlog, telemetry export, and the facts only it knows, such as
// payments' Stripe mode). Internal: the gateway routes only /api/* to services, so browsers never reach
// it; it carries counts and yes/no answers, never a secret. Each probe is bounded in time.
import { STATES, type Connection } from 'mongoose';
import { readinessFactsPath, type ReadinessFacts } from '@shop/contracts';
import type { ServiceApp, ServiceContext } from './service.js';
import { outboxModel } from './bus/models.js';

/** A service's own facts for the production check (no secrets: booleans, counts, kinds). */
export type ReadinessFactsHook<M> = (
  ctx: ServiceContext<M>,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

const PROBE_MS = 2_000;

function within<T>(work: Promise<T>, ms = PROBE_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function replicaSetOf(connection: Connection): Promise<string | null> {
  const db = connection.db;
  if (!db) return null;
  const hello = (await within(db.admin().command({ hello: 1 }))) as { setName?: string };
  return typeof hello.setName === 'string' ? hello.setName : null;
}

async function outboxBacklog(connection: Connection, now: Date): Promise<ReadinessFacts['outbox']> {
  const Outbox = outboxModel(connection);
  const [pending, oldest, failing] = await within(
    Promise.all([
      Outbox.countDocuments({ status: 'pending' }),
      Outbox.findOne({ status: 'pending' }, { createdAt: 1 }).sort({ createdAt: 1 }).lean(),
      Outbox.findOne({ status: 'pending' }, { attempts: 1 }).sort({ attempts: -1 }).lean(),
    ]),
  );
  return {
    pending,
    oldestPendingAgeSeconds: oldest
      ? Math.max(0, Math.round((now.getTime() - new Date(oldest.createdAt).getTime()) / 1000))
      : null,
    failingAttempts: failing?.attempts ?? 0,
  };
}

export function registerReadinessFacts<M>(
  app: ServiceApp,
  ctx: ServiceContext<M>,
  own: ReadinessFactsHook<M> | undefined,
): void {
  app.get(readinessFactsPath, { logLevel: 'warn', schema: { hide: true } }, async () => {
    const up = ctx.connection.readyState === STATES.connected;
    const [replicaSet, outbox, extra] = await Promise.all([
      up ? replicaSetOf(ctx.connection).catch(() => null) : null,
      up
        ? outboxBacklog(ctx.connection, new Date()).catch(() => ({
            pending: -1,
            oldestPendingAgeSeconds: null,
            failingAttempts: 0,
          }))
        : { pending: -1, oldestPendingAgeSeconds: null, failingAttempts: 0 },
      own ? within(Promise.resolve(own(ctx))).catch((err: Error) => ({ error: err.message })) : {},
    ]);
    const facts: ReadinessFacts = {
      service: ctx.name,
      nodeEnv: ctx.config.nodeEnv,
      mongo: { up, replicaSet },
      nats: { up: ctx.bus.isUp() },
      outbox,
      telemetry: { otlpEndpointSet: Boolean(ctx.config.otlpEndpoint) },
      own: extra,
    };
    return facts;
  });
}
