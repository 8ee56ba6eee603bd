// Sign-in, sessions, throttling and the sign-in audit trail: the rules behind /api/auth/* and the
// gateway's session check. Time comes from an injected clock so tests can move past a lockout or an
// expiry without waiting.
import { randomUUID } from 'node:crypto';
import {
  errorCodes,
  invalidCredentialsMessage,
  type AdminPublic,
  type AuditOutcome,
  type VerifiedAdmin,
} from '@shop/contracts';
import { AppError, clearWindow, countHit, readWindow, type Logger } from '@shop/service-kit';
import type { SecurityConfig } from './config.js';
import { hashPassword, verifyPassword } from './domain/password.js';
import { initialExpiry, isExpired, newSessionId, renewedExpiry, sessionHash } from './domain/sessions.js';
import {
  IP_MAX_FAILURES,
  PAIR_MAX_FAILURES,
  THROTTLE_WINDOW_MS,
  accountSlowdownMs,
  counters,
  ipLimitedMessage,
  lockedMessage,
  pairKey,
} from './domain/throttle.js';
import type { AdminUserDoc, SecurityModels, SessionDoc } from './models/index.js';

export type Clock = () => Date;
/** Waits before an answer (the per-account slowdown); tests pass one that only records the wait. */
export type Pause = (ms: number) => Promise<void>;
export const realPause: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

/** A refusal that must reach the browser with a Retry-After header. */
export class TooManyAttempts extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, errorCodes.RATE_LIMITED, message, { retryAfterSeconds });
  }
}

export const invalidCredentials = () => new AppError(401, errorCodes.UNAUTHORIZED, invalidCredentialsMessage);
export const sessionEnded = () => new AppError(401, errorCodes.UNAUTHORIZED, 'Please sign in to continue.');

export function publicAdmin(user: Pick<AdminUserDoc, 'email' | 'name' | 'role'>): AdminPublic {
  return { email: user.email, name: user.name, role: user.role };
}

export class AuthService {
  /** A real scrypt hash of a random password: unknown emails cost the same time as known ones. */
  private dummyHash: Promise<string>;

  constructor(
    private readonly models: SecurityModels,
    private readonly config: SecurityConfig,
    private readonly log: Logger,
    readonly now: Clock,
    private readonly onSessionEnded: (hash: string) => void = () => {},
    private readonly pause: Pause = realPause,
  ) {
    this.dummyHash = hashPassword(randomUUID());
  }

  /** Creates the first admin from the configuration when there is none yet. */
  async ensureFirstAdmin(): Promise<'created' | 'exists'> {
    const { AdminUser } = this.models;
    if (await AdminUser.exists({})) return 'exists';
    const { email, password, name, documentedDefault } = this.config.firstAdmin;
    const passwordHash = await hashPassword(password);
    try {
      await AdminUser.create({
        _id: randomUUID(),
        email,
        name,
        passwordHash,
        role: 'admin',
        createdAt: this.now(),
        lastLoginAt: null,
      });
    } catch (err) {
      // Another replica created it at the same moment: the unique email index keeps one.
      if ((err as { code?: number }).code === 11000) return 'exists';
      throw err;
    }
    if (documentedDefault) {
      // The documented local-development password (services/security/README.md; production refuses it in
      // config.ts). Named, never written: no password reaches a log line.
      this.log.info(
        { email },
        'first admin created with the documented development password (services/security/README.md; set ADMIN_EMAIL / ADMIN_PASSWORD to choose your own)',
      );
    } else {
      this.log.info({ email }, 'first admin created from ADMIN_EMAIL / ADMIN_PASSWORD');
    }
    return 'created';
  }

  /** Checks the credentials; on success returns a new session id (for the cookie) and the admin. */
  async login(email: string, password: string, client: ClientInfo): Promise<{ sessionId: string; user: AdminPublic }> {
    const now = this.now();
    await this.refuseWhileThrottled(email, client, now);

    const user = await this.models.AdminUser.findOne({ email }).select('+passwordHash').lean();
    const ok = user
      ? await verifyPassword(password, user.passwordHash)
      : (await verifyPassword(password, await this.dummyHash), false);
    if (!user || !ok) {
      const locked = await this.recordFailure(email, client, now);
      await this.audit({
        action: 'auth.login',
        outcome: locked ? 'locked' : 'failure',
        actorId: user?._id ?? null,
        actorEmail: email,
        client,
        statusCode: locked ? 429 : 401,
      });
      if (locked) throw new TooManyAttempts(lockedMessage(locked.retryAfterSeconds), locked.retryAfterSeconds);
      throw invalidCredentials();
    }

    const sessionId = newSessionId();
    await this.models.Session.create({
      _id: sessionHash(sessionId),
      userId: user._id,
      createdAt: now,
      renewedAt: now,
      expiresAt: initialExpiry(now),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300),
    });
    await Promise.all([
      this.models.AdminUser.updateOne({ _id: user._id }, { $set: { lastLoginAt: now } }),
      // The failures of this address on this account are forgotten; the account-wide count (the
      // slowdown) and the address count stay: a correct password must not reset what others did.
      clearWindow(this.models.RateCounter, counters.pair, pairKey(email, client.ip), THROTTLE_WINDOW_MS, now),
    ]);
    await this.audit({
      action: 'auth.login',
      outcome: 'success',
      actorId: user._id,
      actorEmail: user.email,
      client,
      statusCode: 200,
    });
    return { sessionId, user: publicAdmin(user) };
  }

  /** Ends the session on the server. Unknown or already ended sessions are fine (idempotent). */
  async logout(sessionId: string | undefined, client: ClientInfo): Promise<void> {
    if (!sessionId) return;
    const hash = sessionHash(sessionId);
    const session = await this.models.Session.findOneAndDelete({ _id: hash }).lean();
    if (!session) return;
    this.onSessionEnded(hash);
    const user = await this.models.AdminUser.findById(session.userId).lean();
    await this.audit({
      action: 'auth.logout',
      outcome: 'success',
      actorId: session.userId,
      actorEmail: user?.email ?? null,
      client,
      statusCode: 200,
    });
  }

  /** The admin of a live session (renewing its idle expiry), or a 401. */
  async verifyHash(hash: string): Promise<VerifiedAdmin> {
    const now = this.now();
    const session = await this.models.Session.findById(hash).lean();
    if (!session) throw sessionEnded();
    if (isExpired(session, now)) {
      await this.models.Session.deleteOne({ _id: hash });
      throw sessionEnded();
    }
    const user = await this.models.AdminUser.findById(session.userId).lean();
    if (!user) {
      await this.models.Session.deleteMany({ userId: session.userId });
      throw sessionEnded();
    }
    const expiresAt = await this.renew(session, now);
    return { id: user._id, ...publicAdmin(user), expiresAt: expiresAt.toISOString() };
  }

  async verifySessionId(sessionId: string | undefined): Promise<VerifiedAdmin> {
    if (!sessionId) throw sessionEnded();
    return this.verifyHash(sessionHash(sessionId));
  }

  private async renew(session: SessionDoc, now: Date): Promise<Date> {
    const next = renewedExpiry(session, now);
    if (!next) return session.expiresAt;
    await this.models.Session.updateOne({ _id: session._id }, { $set: { expiresAt: next, renewedAt: now } });
    return next;
  }

  /**
   * Refuses an address that failed too often (on this account, or on any), and slows every answer for an
   * account under attack. Never refuses the account as such: that would let anyone lock the admin out.
   */
  private async refuseWhileThrottled(email: string, client: ClientInfo, now: Date) {
    const { RateCounter } = this.models;
    const [pair, address, account] = await Promise.all([
      readWindow(RateCounter, counters.pair, pairKey(email, client.ip), THROTTLE_WINDOW_MS, now),
      readWindow(RateCounter, counters.ip, client.ip, THROTTLE_WINDOW_MS, now),
      readWindow(RateCounter, counters.account, email, THROTTLE_WINDOW_MS, now),
    ]);
    if (pair.count >= PAIR_MAX_FAILURES) {
      await this.audit({
        action: 'auth.login',
        outcome: 'locked',
        actorId: null,
        actorEmail: email,
        client,
        statusCode: 429,
      });
      throw new TooManyAttempts(lockedMessage(pair.retryAfterSeconds), pair.retryAfterSeconds);
    }
    if (address.count >= IP_MAX_FAILURES) {
      await this.audit({
        action: 'auth.login',
        outcome: 'locked',
        actorId: null,
        actorEmail: email,
        client,
        statusCode: 429,
      });
      throw new TooManyAttempts(ipLimitedMessage(address.retryAfterSeconds), address.retryAfterSeconds);
    }
    const wait = accountSlowdownMs(account.count);
    if (wait > 0) {
      this.log.warn(
        { email, ip: client.ip, failures: account.count, waitMs: wait },
        'sign-in slowed: many failed attempts on this account',
      );
      await this.pause(wait);
    }
  }

  /** Counts a failure for the pair, the address and the account; the pair's lock when it is now reached. */
  private async recordFailure(
    email: string,
    client: ClientInfo,
    now: Date,
  ): Promise<{ retryAfterSeconds: number } | null> {
    const { RateCounter } = this.models;
    const [pair] = await Promise.all([
      countHit(RateCounter, counters.pair, pairKey(email, client.ip), THROTTLE_WINDOW_MS, now),
      countHit(RateCounter, counters.ip, client.ip, THROTTLE_WINDOW_MS, now),
      countHit(RateCounter, counters.account, email, THROTTLE_WINDOW_MS, now),
    ]);
    if (pair.count < PAIR_MAX_FAILURES) return null;
    this.log.warn(
      { email, ip: client.ip },
      'sign-in from this address to this account stopped after repeated failures',
    );
    return { retryAfterSeconds: pair.retryAfterSeconds };
  }

  async audit(entry: {
    action: string;
    outcome: AuditOutcome;
    actorId: string | null;
    actorEmail: string | null;
    client: ClientInfo;
    statusCode: number;
  }) {
    await this.models.AuditRecord.create({
      _id: randomUUID(),
      at: this.now(),
      actorId: entry.actorId,
      actorEmail: entry.actorEmail,
      action: entry.action,
      method: 'POST',
      path: entry.action === 'auth.logout' ? '/api/auth/logout' : '/api/auth/login',
      route: null,
      targetId: null,
      ip: entry.client.ip,
      userAgent: entry.client.userAgent?.slice(0, 300) ?? null,
      outcome: entry.outcome,
      statusCode: entry.statusCode,
      requestId: entry.client.requestId ?? null,
    });
  }
}
