// The request-monitoring collections (logs, hourly counters, bans, alerts), registered beside the
// sign-in ones of index.ts.
import type { Connection } from 'mongoose';
import { rateCounterModel } from '@shop/service-kit';
import { alertModel } from './alert.js';
import { banModel } from './ban.js';
import { requestLogModel } from './request-log.js';
import { requestStatsModels } from './request-stats.js';

export function registerMonitoringModels(connection: Connection) {
  return {
    RequestLog: requestLogModel(connection),
    ...requestStatsModels(connection),
    Ban: banModel(connection),
    Alert: alertModel(connection),
    // Alert rule windows count in the service kit's fixed-window counters (`rate_counters`, TTL).
    RateCounter: rateCounterModel(connection),
  };
}

export type MonitoringModels = ReturnType<typeof registerMonitoringModels>;
