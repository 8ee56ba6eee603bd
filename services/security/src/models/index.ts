// The security service's collections: admin users, sessions (only the SHA-256 of each session id),
// login throttle counters and audit records. Expired sessions, counters and old audit records are
// removed by TTL indexes; the code also checks expiry itself, so a slow TTL sweep never extends one.
import { Schema, type Connection, type Model } from 'mongoose';
import type { AdminRole, AuditOutcome } from '@shop/contracts';
import { rateCounterModel } from '@shop/service-kit';

export interface AdminUserDoc {
  _id: string;
  email: string;
  name: string;
  passwordHash: string;
  role: AdminRole;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface SessionDoc {
  _id: string; // SHA-256 (hex) of the session id in the cookie
  userId: string;
  createdAt: Date;
  renewedAt: Date;
  expiresAt: Date;
  ip: string;
  userAgent?: string;
}

export interface AuditRecordDoc {
  _id: string; // event id for gateway calls (idempotent), a fresh UUID for sign-in events
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  method: string | null;
  path: string | null;
  route: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  outcome: AuditOutcome;
  statusCode: number | null;
  requestId: string | null;
}

/** Audit records are kept for a year. */
const auditRetentionSeconds = 365 * 24 * 3600;

const adminUserSchema = new Schema<AdminUserDoc>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, lowercase: true, trim: true },
    name: { type: String, required: true },
    // Never returned unless asked for by name (.select('+passwordHash')).
    passwordHash: { type: String, required: true, select: false },
    role: { type: String, enum: ['admin'], required: true, default: 'admin' },
    createdAt: { type: Date, required: true },
    lastLoginAt: { type: Date, default: null },
  },
  { collection: 'admin_users', versionKey: false, _id: false },
);
adminUserSchema.index({ email: 1 }, { unique: true });

const sessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    renewedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    ip: { type: String, required: true },
    userAgent: { type: String },
  },
  { collection: 'sessions', versionKey: false, _id: false },
);
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
sessionSchema.index({ userId: 1 });

const auditSchema = new Schema<AuditRecordDoc>(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    actorId: { type: String, default: null },
    actorEmail: { type: String, default: null },
    action: { type: String, required: true },
    method: { type: String, default: null },
    path: { type: String, default: null },
    route: { type: String, default: null },
    targetId: { type: String, default: null },
    ip: { type: String, default: null },
    userAgent: { type: String, default: null },
    outcome: { type: String, required: true },
    statusCode: { type: Number, default: null },
    requestId: { type: String, default: null },
  },
  { collection: 'audit_records', versionKey: false, _id: false },
);
auditSchema.index({ at: -1 });
auditSchema.index({ actorEmail: 1, at: -1 });
auditSchema.index({ at: 1 }, { expireAfterSeconds: auditRetentionSeconds, name: 'audit_retention' });

export function registerModels(connection: Connection) {
  return {
    AdminUser: connection.model<AdminUserDoc>('AdminUser', adminUserSchema),
    Session: connection.model<SessionDoc>('Session', sessionSchema),
    // Sign-in failure counters: the service kit's fixed-window counters (`rate_counters`, TTL).
    RateCounter: rateCounterModel(connection),
    AuditRecord: connection.model<AuditRecordDoc>('AuditRecord', auditSchema),
  };
}

export type SecurityModels = ReturnType<typeof registerModels>;
export type { Model };
