// GET /api/security/banned-ips, POST /api/security/ban-ip, DELETE /api/security/banned-ips/{id}
// (spec §2.3 Bans, §7). Each change is written with its `ban.changed` event in one transaction; every
// gateway replica hears it and blocks (or lets in) the address within a second.
import { z } from 'zod';
import {
  adminSessionCookie,
  banIpBodySchema,
  banIpResponseSchema,
  bannedIpsResponseSchema,
  errorEnvelopeSchema,
  readCookie,
  successResponseSchema,
  type BannedIp,
} from '@shop/contracts';
import { badRequest, conflict, notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import { banActive, banExpiry, ownAddressesCovered } from '../../domain/bans.js';
import { sessionHash } from '../../domain/sessions.js';
import type { BanDoc } from '../../models/ban.js';
import type { MonitoringModels } from '../../models/monitoring.js';
import type { SecurityModels } from '../../models/index.js';
import { requireAdmin } from './identity.js';

export function banView(d: BanDoc): BannedIp {
  return {
    id: d._id,
    ip: d.ip,
    reason: d.reason,
    bannedDate: d.bannedDate.toISOString(),
    expiresAt: d.expiresAt ? d.expiresAt.toISOString() : null,
    bannedBy: d.bannedBy,
  };
}

const DAY = 86_400_000;
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

export function bansRoutes(app: ServiceApp, ctx: ServiceContext<MonitoringModels & SecurityModels>, now: () => Date) {
  const { models } = ctx;

  app.get(
    '/api/security/banned-ips',
    {
      schema: {
        tags: ['security'],
        summary: 'Bans in force, newest first (admin)',
        response: { 200: bannedIpsResponseSchema, 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      const at = now();
      const docs = await models.Ban.find({ $or: [{ expiresAt: null }, { expiresAt: { $gt: at } }] })
        .sort({ bannedDate: -1 })
        .lean();
      return { bannedIPs: docs.map(banView) };
    },
  );

  app.post(
    '/api/security/ban-ip',
    {
      schema: {
        tags: ['security'],
        summary: 'Ban an address or CIDR range for 1h, 6h, 1d, 7d, 30d or for good (admin)',
        body: banIpBodySchema,
        response: { 200: banIpResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { ip, reason, duration } = request.body;
      // The address of this call and the one the session signed in from: banning either would lock
      // this administrator out of the back office.
      const cookie = readCookie(request.headers.cookie, adminSessionCookie);
      const session = cookie ? await models.Session.findById(sessionHash(cookie)).lean() : null;
      const own = ownAddressesCovered(ip, [request.ip, session?.ip]);
      if (own.length) {
        throw badRequest(
          `You cannot ban ${ip}: it covers your own address (${own.join(', ')}), so it would lock you out of the back office.`,
        );
      }
      const at = now();
      const expiresAt = banExpiry(duration, at);
      const doc: BanDoc = {
        _id: globalThis.crypto.randomUUID(),
        ip,
        reason,
        bannedDate: at,
        expiresAt,
        bannedBy: admin.email,
        removeAt: expiresAt ? new Date(expiresAt.getTime() + DAY) : null,
      };
      await ctx.withOutbox(async (session, outbox) => {
        const existing = await models.Ban.find({ ip }).session(session).lean();
        const active = existing.find((b) => banActive(b, at));
        if (active) {
          throw conflict(
            `${ip} is already banned ${active.expiresAt ? `until ${active.expiresAt.toISOString()}` : 'permanently'}. Unban it first to change the ban.`,
          );
        }
        if (existing.length) await models.Ban.deleteMany({ ip }, { session });
        await models.Ban.create([doc], { session });
        outbox.add('ban.changed', {
          ip,
          action: 'banned',
          reason,
          expiresAt: expiresAt ? expiresAt.toISOString() : null,
          changedBy: admin.email,
          changedAt: at.toISOString(),
        });
      });
      request.log.warn({ admin: admin.email, ip, duration, reason }, 'address banned');
      return { success: true as const, bannedIP: banView(doc) };
    },
  );

  app.delete(
    '/api/security/banned-ips/:id',
    {
      schema: {
        tags: ['security'],
        summary: 'Lift a ban (admin)',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const at = now();
      const removed = await ctx.withOutbox(async (session, outbox) => {
        const ban = await models.Ban.findOneAndDelete({ _id: request.params.id }, { session }).lean();
        if (!ban) return null;
        outbox.add('ban.changed', {
          ip: ban.ip,
          action: 'unbanned',
          expiresAt: null,
          changedBy: admin.email,
          changedAt: at.toISOString(),
        });
        return ban;
      });
      if (!removed) throw notFound('This ban does not exist (it may have been lifted already).');
      request.log.warn({ admin: admin.email, ip: removed.ip }, 'address unbanned');
      return { success: true as const };
    },
  );
}
