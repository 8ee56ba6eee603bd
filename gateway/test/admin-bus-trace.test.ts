// Trace context on the gateway's own NATS messages, like on every service message (service-kit/bus):
// the admin session check (request/reply to the security service) and the audit event published to
// JetStream carry the W3C traceparent of the admin call that caused them. Telemetry starts first, as
// in main.ts. A real nats-server and the security stand-in of helpers.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { jetstreamManager } from '@nats-io/jetstream';
import { sessionVerifySubject } from '@shop/contracts';
import { startTelemetry } from '@shop/service-kit/telemetry';

const telemetry = startTelemetry('gateway-trace-test');
const { createLogger } = await import('@shop/service-kit');
const { NatsSessionChecker } = await import('../src/admin-bus.js');
const { sessionHashOf } = await import('../src/admin-auth.js');
const { startSecurityStandIn } = await import('./helpers.js');

let security: Awaited<ReturnType<typeof startSecurityStandIn>>;
let checker: InstanceType<typeof NatsSessionChecker>;
const checkHeaders: Array<string | undefined> = [];

beforeAll(async () => {
  security = await startSecurityStandIn();
  // Listens beside the stand-in (which answers) to see the headers each session check carries.
  security.nc.subscribe(sessionVerifySubject, {
    callback: (_err, msg) => void checkHeaders.push(msg.headers?.get('traceparent')),
  });
  await security.nc.flush();
  checker = new NatsSessionChecker(security.nats.url, createLogger({ service: 'gateway', level: 'silent' }));
  await checker.connect();
});
afterAll(async () => {
  await checker?.close();
  await security?.close();
  await telemetry.shutdown();
});

const tracer = trace.getTracer('gateway-trace-test');

it("the session check continues the admin call's trace", async () => {
  const traceId = await tracer.startActiveSpan('admin call', async (span) => {
    const admin = await checker.verify(sessionHashOf(security.sessionId));
    expect(admin.email).toBe('chief@shop.test');
    span.end();
    return span.spanContext().traceId;
  });
  await expect.poll(() => checkHeaders.length).toBeGreaterThan(0);
  expect(checkHeaders.at(-1)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
});

it('the audit event carries the trace of the admin call it records, even when published later', async () => {
  const traceId = tracer.startActiveSpan('admin call', (span) => {
    checker.publishAdminAction({
      adminId: 'admin-1',
      adminEmail: 'chief@shop.test',
      method: 'PUT',
      path: '/api/orders/665f1c2e9b1d8a0012345678/status',
      route: 'PUT /api/orders/**',
      targetId: '665f1c2e9b1d8a0012345678',
      ip: '127.0.0.1',
      statusCode: 200,
      outcome: 'success',
      requestId: 'trace-audit-1',
      durationMs: 3,
      at: new Date().toISOString(),
    });
    span.end();
    return span.spanContext().traceId;
  });
  const jsm = await jetstreamManager(security.nc);
  const recorded = async () => {
    const info = await jsm.streams.info('GATEWAY').catch(() => undefined);
    if (!info?.state.messages) return undefined;
    for (let seq = info.state.last_seq; seq >= info.state.first_seq; seq--) {
      const msg = await jsm.streams.getMessage('GATEWAY', { seq }).catch(() => null);
      if (msg && msg.json<{ data: { requestId?: string } }>().data.requestId === 'trace-audit-1') return msg;
    }
    return undefined;
  };
  await expect.poll(async () => Boolean(await recorded())).toBe(true);
  const msg = await recorded();
  expect(msg!.header.get('traceparent')).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
});
