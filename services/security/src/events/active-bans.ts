// `rpc.security.bans.active`: the bans in force now, for a gateway replica that starts or reconnects.
// Between two answers the gateways follow `ban.changed`.
import { activeBansSubject, type ActiveBan } from '@shop/contracts';
import { replyTo } from '@shop/service-kit';
import { z } from 'zod';
import type { MonitoringModels } from '../models/monitoring.js';

export async function activeBans(models: MonitoringModels, now: Date): Promise<ActiveBan[]> {
  const docs = await models.Ban.find({ $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] }).lean();
  return docs.map((d) => ({ ip: d.ip, expiresAt: d.expiresAt ? d.expiresAt.toISOString() : null }));
}

export function activeBansReply(models: MonitoringModels, now: () => Date) {
  return replyTo(activeBansSubject, z.unknown(), async () => ({ bans: await activeBans(models, now()) }));
}
