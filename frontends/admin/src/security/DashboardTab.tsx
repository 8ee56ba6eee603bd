// Dashboard (spec §2.3): the four counters, the 24-hour hourly trend (total, suspicious, errors), the
// top 5 risky IPs and the 5 most recent alerts.
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Ban, Bell, Globe, ShieldAlert } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardBody, CardHeader, CardTitle, Skeleton } from '@shop/ui';
import { fetchSecurityDashboard, securityKeys } from './api.js';
import { formatHour } from './format.js';
import { AlertItem, EmptyState, SecurityError } from './parts.js';

function Counter({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  return (
    <Card>
      <CardBody className="flex items-center gap-3">
        <Icon aria-hidden="true" className="size-6 text-brass-400" />
        <div>
          <p className="text-xs uppercase tracking-wide text-khaki-300">{label}</p>
          <p className="font-display text-2xl font-bold text-khaki-50">{value.toLocaleString('en-US')}</p>
        </div>
      </CardBody>
    </Card>
  );
}

export function DashboardTab() {
  const dashboard = useQuery({
    queryKey: securityKeys.dashboard,
    queryFn: ({ signal }) => fetchSecurityDashboard(signal),
    refetchInterval: 15_000,
  });
  if (dashboard.isError && !dashboard.data)
    return (
      <SecurityError error={dashboard.error} onRetry={() => void dashboard.refetch()} retrying={dashboard.isFetching} />
    );
  const stats = dashboard.data;
  if (!stats) return <Skeleton className="h-96" />;
  const trend = stats.requestTrends.map((h) => ({ ...h, label: formatHour(h.hour) }));
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-label="Security counters"
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
        data-testid="security-counters"
      >
        <Counter label="Banned IPs" value={stats.activeBans} icon={Ban} />
        <Counter label="Requests (24h)" value={stats.totalRequests24h} icon={Globe} />
        <Counter label="Suspicious Activity (24h)" value={stats.suspiciousActivity24h} icon={ShieldAlert} />
        <Counter label="Open Alerts" value={stats.unsolvedAlerts} icon={Bell} />
      </section>
      <Card>
        <CardHeader>
          <CardTitle>Request Trends (24h)</CardTitle>
        </CardHeader>
        <CardBody>
          {/* Decorative (the table below carries the figures for assistive technology): hidden and out of the tab order. */}
          <div className="h-64" aria-hidden="true" inert>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart accessibilityLayer={false} data={trend} margin={{ left: 0, right: 8 }}>
                <CartesianGrid stroke="#323b25" vertical={false} />
                <XAxis dataKey="label" stroke="#c8b98d" fontSize={11} interval={1} />
                <YAxis stroke="#c8b98d" fontSize={12} allowDecimals={false} width={48} />
                <Tooltip
                  contentStyle={{ background: '#1a1f14', border: '1px solid #5c6b43', color: '#ece5d0' }}
                  labelStyle={{ color: '#f7f3e8' }}
                />
                <Legend wrapperStyle={{ color: '#ece5d0', fontSize: 12 }} />
                <Bar dataKey="total" name="Total" fill="#d4a93c" isAnimationActive={false} />
                <Bar dataKey="suspicious" name="Suspicious" fill="#e08a3c" isAnimationActive={false} />
                <Bar dataKey="errors" name="Errors" fill="#d8574a" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <table className="sr-only" data-testid="request-trends">
            <caption>Requests per hour over the last 24 hours</caption>
            <thead>
              <tr>
                <th scope="col">Hour</th>
                <th scope="col">Total</th>
                <th scope="col">Suspicious</th>
                <th scope="col">Errors</th>
              </tr>
            </thead>
            <tbody>
              {trend.map((h) => (
                <tr key={h.hour} data-hour={h.hour}>
                  <th scope="row">{h.label}</th>
                  <td>{h.total}</td>
                  <td>{h.suspicious}</td>
                  <td>{h.errors}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardBody>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Top Risky IPs</CardTitle>
          </CardHeader>
          <CardBody>
            {stats.topRiskyIPs.length ? (
              <ol className="flex flex-col divide-y divide-olive-700 text-sm" data-testid="top-risky-ips">
                {stats.topRiskyIPs.map((r) => (
                  <li key={r.ip} className="flex items-center justify-between gap-3 py-2">
                    <span className="font-mono text-khaki-50">{r.ip}</span>
                    <span className="text-khaki-200">
                      {r.count.toLocaleString('en-US')} requests ·{' '}
                      <span className="text-alert-400">{r.highRisk.toLocaleString('en-US')} high risk</span>
                    </span>
                  </li>
                ))}
              </ol>
            ) : (
              <EmptyState>No risky addresses in the last 24 hours.</EmptyState>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent Alerts</CardTitle>
          </CardHeader>
          <CardBody>
            {stats.recentAlerts.length ? (
              <ul className="flex flex-col gap-2" data-testid="recent-alerts">
                {stats.recentAlerts.map((a) => (
                  <AlertItem key={a.id} alert={a} />
                ))}
              </ul>
            ) : (
              <EmptyState>No security alerts. All quiet.</EmptyState>
            )}
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
