// Trace context end to end inside one process: an incoming W3C traceparent shows up as trace_id on the
// service's log lines, travels with the outbox event through NATS headers, and the consumer's log lines
// carry the same trace id. Telemetry starts before any service is built, as main.ts does.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trace, type SpanContext } from '@opentelemetry/api';
import { startTelemetry } from '../src/telemetry.js';
import { startMongo, startNats, type StartedMongo, type StartedNats } from '@shop/test-support';
import type { CustomersLikeService, OrdersLikeService } from './helpers.js';

const telemetry = startTelemetry('service-kit-test');
// Loaded after telemetry started, the way a service's main.ts loads its app.
const { buildCustomersLike, buildOrdersLike, eventually, LogLines } = await import('./helpers.js');
let mongo: StartedMongo;
let nats: StartedNats;
let orders: OrdersLikeService;
let customers: CustomersLikeService;
const ordersLogs = new LogLines();
const customersLogs = new LogLines();
let url: string;

beforeAll(async () => {
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  ({ service: orders } = await buildOrdersLike(mongo.uri, nats.url, ordersLogs));
  ({ service: customers } = await buildCustomersLike(mongo.uri, nats.url, customersLogs));
  // What a handler sees as its active span (the SDK's span: name, parent and attributes are readable).
  orders.app.get('/span/:id', async () => {
    const span = trace.getActiveSpan() as unknown as
      { name: string; parentSpanContext?: SpanContext; attributes: Record<string, unknown> } | undefined;
    return {
      name: span?.name,
      route: span?.attributes['http.route'],
      parentSpanId: span?.parentSpanContext?.spanId,
      traceId: trace.getActiveSpan()?.spanContext().traceId,
    };
  });
  url = await orders.start();
  await customers.start();
});

afterAll(async () => {
  await orders?.stop();
  await customers?.stop();
  await Promise.all([nats?.stop(), mongo?.stop()]);
  await telemetry.shutdown();
});

it('does not export without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  expect(telemetry.exporting).toBe(false);
});

it('carries the caller trace id into HTTP logs and, through NATS, into the consumer logs', async () => {
  // The caller (as the gateway would) works inside a span; the undici instrumentation sends its
  // traceparent with the fetch.
  const { res, traceId } = await trace.getTracer('test-caller').startActiveSpan('caller', async (span) => {
    const response = await fetch(`${url}/widgets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-test-1' },
      body: JSON.stringify({ orderNumber: 'TR-1', quantity: 3 }),
    });
    span.end();
    return { res: response, traceId: span.spanContext().traceId };
  });
  expect(res.status).toBe(201);
  const { eventId } = (await res.json()) as { eventId: string };

  const requestLines = ordersLogs.find((l) => l.request_id === 'trace-test-1');
  expect(requestLines.length).toBeGreaterThan(0);
  for (const line of requestLines) {
    expect(line).toMatchObject({ service: 'orders', trace_id: traceId });
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
  }

  const handled = await eventually(
    async () => customersLogs.find((l) => l.eventId === eventId && l.msg === 'event handled')[0],
  );
  expect(handled).toMatchObject({ service: 'customers', trace_id: traceId });
});

it("runs a handler in the service's server span: a child of the caller's span, named after the route", async () => {
  // Sent on a bare socket: the client instrumentations would put their own span between the two.
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpanId = '00f067aa0ba902b7';
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.end(
    `GET /span/42 HTTP/1.1\r\nhost: localhost\r\ntraceparent: 00-${traceId}-${callerSpanId}-01\r\nconnection: close\r\n\r\n`,
  );
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
    name: 'GET /span/:id',
    route: '/span/:id',
    parentSpanId: callerSpanId,
    traceId,
  });
});
