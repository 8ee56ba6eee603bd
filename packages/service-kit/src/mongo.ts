// The service's own MongoDB database through mongoose: one connection per service, `dbName` = shop_<name>.
import { STATES, type ClientSession, type Collection, type Connection } from 'mongoose';

export function databaseName(service: string) {
  return `shop_${service}`;
}

/**
 * The driver's connection pool, unless MONGO_URL sets it: a few connections open from the start, and a
 * burst opens up to 8 more at a time instead of the driver's 2. With 2, a service that met 50 concurrent
 * requests after start-up kept them queued for seconds while its pool grew (issue 20: the tracking read
 * held 16 connections when its load began, 52 eight seconds later).
 */
export function connectionPoolOptions(mongoUrl: string): { minPoolSize?: number; maxConnecting?: number } {
  const query = mongoUrl.split('?')[1] ?? '';
  const inUrl = (name: string) => new RegExp(`(^|&)${name}=`, 'i').test(query);
  return {
    ...(inUrl('minPoolSize') ? {} : { minPoolSize: 4 }),
    ...(inUrl('maxConnecting') ? {} : { maxConnecting: 8 }),
  };
}

/** A quick ping bounded in time, for /readyz. */
export async function pingMongo(connection: Connection, timeoutMs = 1500): Promise<boolean> {
  if (connection.readyState !== STATES.connected || !connection.db) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const ping = connection.db
      .admin()
      .ping()
      .then(() => true);
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    return await Promise.race([ping, timeout]);
  } catch {
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * Inserts documents that are complete already (every field typed and set by the caller) through the
 * driver, in one command. One document goes through `insertOne`: the driver's `insertMany` (and mongoose's,
 * even lean) builds a whole bulk write for it, a good part of a quote request's CPU for one outbox event.
 */
export async function insertComplete(
  model: { collection: Collection },
  docs: readonly object[],
  session: ClientSession | null,
): Promise<void> {
  const options = session ? { session } : {};
  if (docs.length === 1) await model.collection.insertOne(docs[0], options);
  else if (docs.length > 1) await model.collection.insertMany(docs, options);
}
