// Session ids and their lifetime rules. The browser holds a random 32-byte id; the database holds only
// its SHA-256, so a copy of the database (or of a log) does not let anyone sign in.
import { createHash, randomBytes } from 'node:crypto';

/** Idle expiry: a session not used for this long ends (sliding: each use moves it on). */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** Absolute expiry: however busy, a session ends this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 24 * 60 * 60 * 1000;
/** Renew at most this often, so a busy admin does not cause a write on every call. */
export const SESSION_RENEW_AFTER_MS = 5 * 60 * 1000;

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

export interface SessionTimes {
  createdAt: Date;
  expiresAt: Date;
  renewedAt: Date;
}

export function initialExpiry(now: Date): Date {
  return new Date(now.getTime() + SESSION_IDLE_MS);
}

/** The new idle expiry when a session is used now, or undefined when no renewal is due yet. */
export function renewedExpiry(session: SessionTimes, now: Date): Date | undefined {
  if (now.getTime() - session.renewedAt.getTime() < SESSION_RENEW_AFTER_MS) return undefined;
  const absoluteEnd = session.createdAt.getTime() + SESSION_ABSOLUTE_MS;
  const next = Math.min(now.getTime() + SESSION_IDLE_MS, absoluteEnd);
  return next > session.expiresAt.getTime() ? new Date(next) : undefined;
}

export function isExpired(session: Pick<SessionTimes, 'expiresAt' | 'createdAt'>, now: Date): boolean {
  return (
    session.expiresAt.getTime() <= now.getTime() || now.getTime() >= session.createdAt.getTime() + SESSION_ABSOLUTE_MS
  );
}
