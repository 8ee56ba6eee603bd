// `gateway.requests_logged`: flushes of a gateway's request log buffer. In one transaction (with the
// service kit's processed-event mark, so a redelivered batch counts nothing twice): the entries are
// stored, the hourly counters move, and the alert rules count their signals per address; a rule that
// reaches its threshold opens an alert (or counts a repeat on the one already open) and publishes
// `alert.raised` through the outbox. Dropped entries are counted and raise their own alert.
import type { ClientSession, Model, mongo } from 'mongoose';
import { requestLogEntriesOf, type EventData, type RequestLogEntry } from '@shop/contracts';
import { consumeEventBatches, type Outbox } from '@shop/service-kit';
import { countRuleHits, droppedLogsRule, hourOf, isErrorStatus, suspiciousRisk } from '../domain/alert-rules.js';
import type { MonitoringModels } from '../models/monitoring.js';
import type { RequestLogDoc } from '../models/request-log.js';
import { statsKeepMs } from '../models/request-stats.js';

export interface AlertToRaise {
  type: string;
  ip: string;
  severity: EventData<'alert.raised'>['severity'];
  description: string;
  at: Date;
  count: number;
}

/**
 * Opens the alert, or counts `count` more on the open one of the same rule and address. Publishes
 * `alert.raised` only when it opens. Answers true when it opened one.
 */
export async function raiseOrRepeat(
  models: MonitoringModels,
  session: ClientSession,
  outbox: Outbox,
  alert: AlertToRaise,
): Promise<boolean> {
  const repeated = await models.Alert.updateOne(
    { type: alert.type, ip: alert.ip, resolved: false },
    { $inc: { count: alert.count }, $max: { lastSeenAt: alert.at } },
    { session },
  );
  if (repeated.matchedCount > 0) return false;
  const id = globalThis.crypto.randomUUID();
  await models.Alert.create(
    [
      {
        _id: id,
        type: alert.type,
        ip: alert.ip,
        description: alert.description,
        severity: alert.severity,
        timestamp: alert.at,
        lastSeenAt: alert.at,
        count: alert.count,
        resolved: false,
        resolvedBy: null,
        resolvedAt: null,
      },
    ],
    { session },
  );
  outbox.add('alert.raised', {
    alertId: id,
    type: alert.type,
    severity: alert.severity,
    description: alert.description,
    ...(alert.ip ? { ip: alert.ip } : {}),
    raisedAt: alert.at.toISOString(),
  });
  return true;
}

/**
 * The hourly counter increments for a batch of entries (and entries a gateway dropped, counted in the
 * hour `now` falls in): upserts for `HourlyStats` and `AddressHour`. Pure, so a bulk seed (the
 * 1,000,000-entry benchmark) counts exactly as the consumer does.
 */
export function hourlyIncrements(entries: readonly RequestLogEntry[], dropped: number, now: Date) {
  const hours = new Map<number, { total: number; suspicious: number; errors: number; dropped: number }>();
  // Per hour (ms) and address: the hour's ISO text, for the key, is made once per pair, not per entry.
  type AddressCounts = { count: number; suspicious: number; highRisk: number };
  const addresses = new Map<number, Map<string, AddressCounts>>();
  for (const e of entries) {
    const hour = hourOf(e.timestamp).getTime();
    let h = hours.get(hour);
    if (!h) hours.set(hour, (h = { total: 0, suspicious: 0, errors: 0, dropped: 0 }));
    h.total += 1;
    const suspicious = suspiciousRisk(e.riskLevel);
    if (suspicious) h.suspicious += 1;
    if (isErrorStatus(e.statusCode)) h.errors += 1;
    let ofHour = addresses.get(hour);
    if (!ofHour) addresses.set(hour, (ofHour = new Map<string, AddressCounts>()));
    let a = ofHour.get(e.ip);
    if (!a) ofHour.set(e.ip, (a = { count: 0, suspicious: 0, highRisk: 0 }));
    a.count += 1;
    if (suspicious) a.suspicious += 1;
    if (e.riskLevel === 'high') a.highRisk += 1;
  }
  if (dropped > 0) {
    const hour = hourOf(now).getTime();
    const h = hours.get(hour) ?? { total: 0, suspicious: 0, errors: 0, dropped: 0 };
    h.dropped += dropped;
    hours.set(hour, h);
  }
  return {
    hourly: [...hours].map(([hour, inc]) => ({
      updateOne: {
        filter: { _id: new Date(hour) },
        update: { $inc: inc, $setOnInsert: { expiresAt: new Date(hour + statsKeepMs) } },
        upsert: true,
      },
    })),
    addresses: [...addresses].flatMap(([hour, ofHour]) => {
      const at = new Date(hour);
      const iso = at.toISOString();
      return [...ofHour].map(([ip, a]) => ({
        updateOne: {
          filter: { _id: `${iso}|${ip}` },
          update: {
            $inc: { count: a.count, suspicious: a.suspicious, highRisk: a.highRisk },
            $setOnInsert: { hour: at, ip, expiresAt: new Date(hour + statsKeepMs) },
          },
          upsert: true,
        },
      }));
    }),
  };
}

/** A model's collection as the driver's, typed with the model's documents (their string and date ids). */
const driverCollection = <T extends mongo.Document>(model: Model<T>) =>
  model.collection as unknown as mongo.Collection<T>;

async function countHourly(
  models: MonitoringModels,
  session: ClientSession,
  entries: readonly RequestLogEntry[],
  dropped: number,
  now: Date,
) {
  const { hourly, addresses } = hourlyIncrements(entries, dropped, now);
  // The driver's bulk writes: the upserts are built typed here, mongoose's casting of each adds nothing.
  if (hourly.length) await driverCollection(models.HourlyStats).bulkWrite(hourly, { session, ordered: true });
  if (addresses.length) await driverCollection(models.AddressHour).bulkWrite(addresses, { session, ordered: true });
}

/** The stored form of a flush's entries: ids from the event's id and the entry's place in it. */
function requestLogDocs(eventId: string, gateway: string, entries: readonly RequestLogEntry[]): RequestLogDoc[] {
  return entries.map((e, i) => ({
    _id: `${eventId}:${i}`,
    timestamp: new Date(e.timestamp),
    ip: e.ip,
    method: e.method,
    path: e.path,
    userAgent: e.userAgent ?? '',
    statusCode: e.statusCode,
    responseTime: e.responseTime,
    riskLevel: e.riskLevel,
    signals: e.signals,
    requestId: e.requestId ?? null,
    gateway,
  }));
}

export function requestsLoggedConsumer(models: MonitoringModels, now: () => Date) {
  // The flushes waiting when the consumer is free come as one batch (one transaction): their entries are
  // stored in one insert and counted in one pass of the hourly counters (under load, a few flushes of a
  // few hundred entries each). The alert rules and the dropped-entries alert still go flush by flush,
  // in stream order, so alerts open and count exactly as they did one event at a time.
  return consumeEventBatches('gateway.requests_logged', async (events, { session, outbox, log }) => {
    // The batch arrives as columns (the gateway's cheap form); stored and counted an entry at a time.
    const flushes = events.map((event) => ({ event, entries: requestLogEntriesOf(event.data.log) }));
    const entries = flushes.flatMap((f) => f.entries);
    if (entries.length) {
      // The driver's insert of documents built here from a validated event: mongoose's per-document
      // hydration and validation were most of the service's CPU on the request log (issue 20).
      await driverCollection(models.RequestLog).insertMany(
        flushes.flatMap(({ event, entries: own }) => requestLogDocs(event.id, event.data.gateway, own)),
        { session, ordered: true },
      );
    }
    await countHourly(
      models,
      session,
      entries,
      events.reduce((sum, event) => sum + event.data.dropped, 0),
      now(),
    );

    for (const { event, entries: own } of flushes) {
      for (const { rule, ip, hits, lastAt } of countRuleHits(own).values()) {
        const at = new Date(lastAt);
        // An alert already open for this rule and address counts the repeat, whatever the window.
        const repeated = await models.Alert.updateOne(
          { type: rule.type, ip, resolved: false },
          { $inc: { count: hits }, $max: { lastSeenAt: at } },
          { session },
        );
        if (repeated.matchedCount > 0) continue;
        const windowStart = Math.floor(at.getTime() / rule.windowMs) * rule.windowMs;
        const counter = await models.RateCounter.findOneAndUpdate(
          { _id: `alert:${rule.type}:${ip}:${windowStart}` },
          { $inc: { count: hits }, $setOnInsert: { expiresAt: new Date(windowStart + rule.windowMs) } },
          { upsert: true, returnDocument: 'after', lean: true, session },
        );
        const count = counter?.count ?? hits;
        if (count < rule.threshold) continue;
        const opened = await raiseOrRepeat(models, session, outbox, {
          type: rule.type,
          ip,
          severity: rule.severity,
          description: rule.describe(ip, count, rule.windowMs),
          at,
          count,
        });
        if (opened) log.warn({ alert: rule.type, ip, count, eventId: event.id }, 'security alert raised');
      }

      const { dropped, gateway } = event.data;
      if (dropped > 0) {
        log.warn({ gateway, dropped, eventId: event.id }, 'a gateway dropped request log entries while NATS was away');
        await raiseOrRepeat(models, session, outbox, {
          type: droppedLogsRule.type,
          ip: '',
          severity: droppedLogsRule.severity,
          description: droppedLogsRule.describe(gateway, dropped),
          at: now(),
          count: dropped,
        });
      }
    }
  });
}
