// `gateway.requests_logged`: one flush of a gateway's request log buffer. In one transaction (with the
// service kit's processed-event mark, so a redelivered batch counts nothing twice): the entries are
// stored, the hourly counters move, and the alert rules count their signals per address; a rule that
// reaches its threshold opens an alert (or counts a repeat on the one already open) and publishes
// `alert.raised` through the outbox. Dropped entries are counted and raise their own alert.
import type { ClientSession } from 'mongoose';
import { requestLogEntriesOf, type EventData, type RequestLogEntry } from '@shop/contracts';
import { consumeEvent, type Outbox } from '@shop/service-kit';
import { countRuleHits, droppedLogsRule, hourOf, isErrorStatus, suspiciousRisk } from '../domain/alert-rules.js';
import type { MonitoringModels } from '../models/monitoring.js';
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
  const addresses = new Map<string, { hour: Date; ip: string; count: number; suspicious: number; highRisk: number }>();
  for (const e of entries) {
    const hour = hourOf(e.timestamp);
    const h = hours.get(hour.getTime()) ?? { total: 0, suspicious: 0, errors: 0, dropped: 0 };
    h.total += 1;
    if (suspiciousRisk(e.riskLevel)) h.suspicious += 1;
    if (isErrorStatus(e.statusCode)) h.errors += 1;
    hours.set(hour.getTime(), h);
    const key = `${hour.toISOString()}|${e.ip}`;
    const a = addresses.get(key) ?? { hour, ip: e.ip, count: 0, suspicious: 0, highRisk: 0 };
    a.count += 1;
    if (suspiciousRisk(e.riskLevel)) a.suspicious += 1;
    if (e.riskLevel === 'high') a.highRisk += 1;
    addresses.set(key, a);
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
    addresses: [...addresses].map(([key, a]) => ({
      updateOne: {
        filter: { _id: key },
        update: {
          $inc: { count: a.count, suspicious: a.suspicious, highRisk: a.highRisk },
          $setOnInsert: { hour: a.hour, ip: a.ip, expiresAt: new Date(a.hour.getTime() + statsKeepMs) },
        },
        upsert: true,
      },
    })),
  };
}

async function countHourly(
  models: MonitoringModels,
  session: ClientSession,
  entries: readonly RequestLogEntry[],
  dropped: number,
  now: Date,
) {
  const { hourly, addresses } = hourlyIncrements(entries, dropped, now);
  if (hourly.length) await models.HourlyStats.bulkWrite(hourly, { session, ordered: true });
  if (addresses.length) await models.AddressHour.bulkWrite(addresses, { session, ordered: true });
}

export function requestsLoggedConsumer(models: MonitoringModels, now: () => Date) {
  return consumeEvent('gateway.requests_logged', async (event, { session, outbox, log }) => {
    const { dropped, gateway } = event.data;
    // The batch arrives as columns (the gateway's cheap form); stored and counted an entry at a time.
    const entries = requestLogEntriesOf(event.data.log);
    if (entries.length) {
      await models.RequestLog.insertMany(
        entries.map((e, i) => ({
          _id: `${event.id}:${i}`,
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
        })),
        { session, ordered: true },
      );
    }
    await countHourly(models, session, entries, dropped, now());

    for (const { rule, ip, hits, lastAt } of countRuleHits(entries).values()) {
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
      if (opened) log.warn({ alert: rule.type, ip, count }, 'security alert raised');
    }

    if (dropped > 0) {
      log.warn({ gateway, dropped }, 'a gateway dropped request log entries while NATS was away');
      await raiseOrRepeat(models, session, outbox, {
        type: droppedLogsRule.type,
        ip: '',
        severity: droppedLogsRule.severity,
        description: droppedLogsRule.describe(gateway, dropped),
        at: now(),
        count: dropped,
      });
    }
  });
}
