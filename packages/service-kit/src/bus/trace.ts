// W3C trace context in NATS headers, both ways: publishers inject `traceparent`, receivers extract it
// so a consumer's or replier's work continues the trace of the request that caused it.
import { context, propagation, type Context, type TextMapGetter } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';

/** The current trace context as a plain object (kept with an outbox event until it is published). */
export function currentTraceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

export function toNatsHeaders(carrier: Record<string, string>, extra: Record<string, string> = {}): MsgHdrs {
  const h = natsHeaders();
  for (const [k, v] of Object.entries({ ...carrier, ...extra })) h.set(k, v);
  return h;
}

const natsGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => (carrier ? carrier.keys() : []),
  get: (carrier, key) => {
    if (!carrier) return undefined;
    const value = carrier.get(key);
    return value === '' ? undefined : value;
  },
};

export function contextFromNatsHeaders(h: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), h, natsGetter);
}
