// The back office's security calls (admin part B §7): dashboard, logs (limit 100, riskLevel, ip), bans,
// alerts (resolved true/false/all), ban, unban, resolve. Answers are checked with the shared schemas.
import {
  banIpResponseSchema,
  bannedIpsResponseSchema,
  securityAlertsResponseSchema,
  securityDashboardResponseSchema,
  securityLogsDefaultLimit,
  securityLogsResponseSchema,
  type BanIpBody,
  type RiskLevel,
} from '@shop/contracts';
import { adminFetch } from '../api.js';

export type RiskFilter = RiskLevel | 'all';
export type AlertFilter = 'false' | 'true' | 'all';

export const securityKeys = {
  all: ['security'] as const,
  dashboard: ['security', 'dashboard'] as const,
  logs: (risk: RiskFilter, ip: string) => ['security', 'logs', risk, ip] as const,
  bans: ['security', 'bans'] as const,
  alerts: (resolved: AlertFilter) => ['security', 'alerts', resolved] as const,
};

export async function fetchSecurityDashboard(signal?: AbortSignal) {
  return securityDashboardResponseSchema.parse(await adminFetch('/api/security/dashboard', { signal })).stats;
}

export async function fetchSecurityLogs(risk: RiskFilter, ip: string, signal?: AbortSignal) {
  const q = new URLSearchParams({ limit: String(securityLogsDefaultLimit) });
  if (risk !== 'all') q.set('riskLevel', risk);
  if (ip.trim()) q.set('ip', ip.trim());
  return securityLogsResponseSchema.parse(await adminFetch(`/api/security/logs?${q}`, { signal })).logs;
}

export async function fetchBannedIps(signal?: AbortSignal) {
  return bannedIpsResponseSchema.parse(await adminFetch('/api/security/banned-ips', { signal })).bannedIPs;
}

export async function fetchSecurityAlerts(resolved: AlertFilter, signal?: AbortSignal) {
  return securityAlertsResponseSchema.parse(await adminFetch(`/api/security/alerts?resolved=${resolved}`, { signal }))
    .alerts;
}

export async function banIp(body: BanIpBody) {
  return banIpResponseSchema.parse(await adminFetch('/api/security/ban-ip', { method: 'POST', json: body })).bannedIP;
}

export async function unbanIp(id: string) {
  await adminFetch(`/api/security/banned-ips/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function resolveAlert(id: string) {
  await adminFetch(`/api/security/alerts/${encodeURIComponent(id)}/resolve`, { method: 'PATCH' });
}
