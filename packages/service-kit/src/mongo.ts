// The service's own MongoDB database through mongoose: one connection per service, `dbName` = shop_<name>.
import { STATES, type Connection } from 'mongoose';

export function databaseName(service: string) {
  return `shop_${service}`;
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
