// Alert rules (README "Alert rules"): which request signals, counted per client address in a fixed
// window, raise which alert. Pure: the request-log consumer counts, these rules decide.
import type { AlertSeverity, AlertType, RequestLogEntry, RequestSignal } from '@shop/contracts';

export interface AlertRule {
  type: AlertType;
  /** The signals that count towards it (any of them). */
  signals: readonly RequestSignal[];
  /** Hits from one address within one window that raise the alert. */
  threshold: number;
  windowMs: number;
  severity: AlertSeverity;
  describe(ip: string, hits: number, windowMs: number): string;
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

export const alertRules: readonly AlertRule[] = [
  {
    type: 'brute_force',
    signals: ['failed_sign_in'],
    threshold: 5,
    windowMs: 15 * 60_000,
    severity: 'high',
    describe: (ip, hits, w) => `Sign-in brute force: ${hits} failed admin sign-ins from ${ip} within ${minutes(w)}`,
  },
  {
    type: 'code_guessing',
    signals: ['code_guess'],
    threshold: 5,
    windowMs: 15 * 60_000,
    severity: 'high',
    describe: (ip, hits, w) =>
      `Verification code guessing: ${hits} wrong or refused order-lookup codes from ${ip} within ${minutes(w)}`,
  },
  {
    type: 'not_found_burst',
    signals: ['not_found'],
    threshold: 20,
    windowMs: 5 * 60_000,
    severity: 'medium',
    describe: (ip, hits, w) => `Scanning: ${hits} requests for missing pages or files from ${ip} within ${minutes(w)}`,
  },
  {
    type: 'injection_attempt',
    signals: ['injection', 'traversal'],
    threshold: 1,
    windowMs: 60 * 60_000,
    severity: 'high',
    describe: (ip) => `Injection or path traversal pattern in a request from ${ip}`,
  },
  {
    type: 'rate_limit_storm',
    signals: ['rate_limited'],
    threshold: 20,
    windowMs: 5 * 60_000,
    severity: 'medium',
    describe: (ip, hits, w) =>
      `Rate-limit storm: ${hits} requests from ${ip} refused by the rate limit within ${minutes(w)}`,
  },
  {
    type: 'banned_ip_retry',
    signals: ['banned'],
    threshold: 3,
    windowMs: 15 * 60_000,
    severity: 'low',
    describe: (ip, hits, w) => `Banned address retrying: ${hits} requests from banned ${ip} within ${minutes(w)}`,
  },
];

/** A gateway had to drop request log entries (NATS away): one open alert per gateway replica. */
export const droppedLogsRule = {
  type: 'request_logs_dropped' as const,
  severity: 'medium' as const,
  describe: (gateway: string, dropped: number) =>
    `Request logs lost: gateway ${gateway} dropped ${dropped} request log entr${dropped === 1 ? 'y' : 'ies'} while the message bus was away`,
};

/** Per rule and address: how many entries of this batch count towards it. */
export function countRuleHits(
  entries: readonly RequestLogEntry[],
): Map<string, { rule: AlertRule; ip: string; hits: number; lastAt: string }> {
  const hits = new Map<string, { rule: AlertRule; ip: string; hits: number; lastAt: string }>();
  for (const entry of entries) {
    for (const rule of alertRules) {
      if (!entry.signals.some((s) => rule.signals.includes(s))) continue;
      const key = `${rule.type}|${entry.ip}`;
      const current = hits.get(key);
      if (current) {
        current.hits += 1;
        if (entry.timestamp > current.lastAt) current.lastAt = entry.timestamp;
      } else hits.set(key, { rule, ip: entry.ip, hits: 1, lastAt: entry.timestamp });
    }
  }
  return hits;
}

export const suspiciousRisk = (risk: RequestLogEntry['riskLevel']) => risk !== 'low';
/** Errors on the trend chart: any answer of 400 or above (refusals and failures alike). */
export const isErrorStatus = (status: number) => status >= 400;

/** The start of the hour containing `at` (the hourly counters' key). */
export function hourOf(at: Date | string): Date {
  const t = new Date(at).getTime();
  return new Date(Math.floor(t / 3_600_000) * 3_600_000);
}
