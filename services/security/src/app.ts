// Builds the security service (testable without listening): admin users, sign-in with server-side
// sessions, login throttling and lockout, the session check the gateway asks for over NATS, and the
// audit trail of sign-ins and admin calls.
import { readFileSync } from 'node:fs';
import { sessionRevokedSubject, sessionVerifyRequestSchema, sessionVerifySubject } from '@shop/contracts';
import { createService, replyTo, type ServiceDefinition } from '@shop/service-kit';
import { AuthService, realPause, type Clock, type Pause } from './auth.js';
import { devAdmin, loadConfig, type SecurityConfig } from './config.js';
import { verifyPassword } from './domain/password.js';
import { securityConsumers } from './events/consumers.js';
import { registerModels, type SecurityModels } from './models/index.js';
import type { MonitoringModels } from './models/monitoring.js';
import { activeBansReply } from './events/active-bans.js';
import { requestsLoggedConsumer } from './events/gateway-requests-logged.js';
import { registerMonitoringModels } from './models/monitoring.js';
import { ensureLogRetention } from './models/request-log.js';
import { alertsRoutes } from './routes/admin/alerts.js';
import { bansRoutes } from './routes/admin/bans.js';
import { dashboardRoutes } from './routes/admin/dashboard.js';
import { logsRoutes } from './routes/admin/logs.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';

// package.json sits one level above both src/ and dist/.
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface TestHooks extends Pick<ServiceDefinition<unknown>, 'logDestination' | 'relay'> {
  /** The clock behind expiry and lockout (tests move it forward). */
  now?: Clock;
  /** The wait of the per-account sign-in slowdown (tests record it instead of waiting). */
  pause?: Pause;
}

export async function buildApp(config: SecurityConfig = loadConfig(), hooks: TestHooks = {}) {
  const { now = () => new Date(), pause = realPause, ...serviceHooks } = hooks;
  const service = await createService<SecurityModels & MonitoringModels>({
    name: 'security',
    version,
    config,
    openapi: {
      title: 'Shop security service',
      description: 'Admin sign-in and sessions, login throttling, the audit trail of admin actions.',
    },
    models: (connection) => ({ ...registerModels(connection), ...registerMonitoringModels(connection) }),
    routes: (app, ctx) => {
      authRoutes(app, () => auth, { cookieSecure: config.cookieSecure });
      auditRoutes(app, ctx.models);
      dashboardRoutes(app, ctx.models, now);
      logsRoutes(app, ctx.models);
      bansRoutes(app, ctx, now);
      alertsRoutes(app, ctx.models, now);
    },
    afterConnect: async () => {
      await auth.ensureFirstAdmin();
      await ensureLogRetention(service.ctx.models.RequestLog, config.logRetentionDays * 86_400);
    },
    replies: (ctx) => [
      replyTo(sessionVerifySubject, sessionVerifyRequestSchema, async ({ sessionHash }) =>
        auth.verifyHash(sessionHash),
      ),
      activeBansReply(ctx.models, now),
    ],
    consumers: (ctx) => [...securityConsumers(ctx.models), requestsLoggedConsumer(ctx.models, now)],
    // For the production check: the session cookie's Secure flag, and how many admins (of the first 20)
    // still sign in with the documented development password (the README prints it: critical in production).
    readinessFacts: async (ctx) => {
      const admins = await ctx.models.AdminUser.find({}).select('+passwordHash').limit(20).lean();
      const matches = await Promise.all(admins.map((a) => verifyPassword(devAdmin.password, a.passwordHash)));
      return {
        cookieSecure: config.cookieSecure,
        devPasswordAdmins: admins.filter((_, i) => matches[i]).map((a) => a.email),
      };
    },
    ...serviceHooks,
  });
  // Created after the service so it can use its logger, models and NATS connection; routes and hooks
  // only run after this line.
  const auth: AuthService = new AuthService(
    service.ctx.models,
    config,
    service.ctx.log,
    now,
    (hash) => {
      // Every gateway drops the ended session from its short cache at once (core NATS, best effort:
      // the cache lives a few seconds at most anyway).
      service.ctx.bus.connection?.publish(sessionRevokedSubject, JSON.stringify({ sessionHash: hash }));
    },
    pause,
  );
  return Object.assign(service, { auth });
}
