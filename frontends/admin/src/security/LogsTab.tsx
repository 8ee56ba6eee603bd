// Logs (spec §2.3): filters by risk level and by IP; time, IP, method and path (with the user agent),
// status code, risk level and response time in ms. The newest 100 (spec §9).
import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Field, Input, Select, Skeleton } from '@shop/ui';
import { fetchSecurityLogs, securityKeys, type RiskFilter } from './api.js';
import { formatDateTime } from './format.js';
import { EmptyState, RiskBadge, SecurityError } from './parts.js';

export function LogsTab() {
  const [risk, setRisk] = useState<RiskFilter>('all');
  const [ip, setIp] = useState('');
  const deferredIp = useDeferredValue(ip.trim());
  const logs = useQuery({
    queryKey: securityKeys.logs(risk, deferredIp),
    queryFn: ({ signal }) => fetchSecurityLogs(risk, deferredIp, signal),
    refetchInterval: 10_000,
  });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-4">
        <Field label="Risk level" className="w-44">
          <Select value={risk} onChange={(e) => setRisk(e.target.value as RiskFilter)}>
            <option value="all">All</option>
            <option value="low">Low</option>
            <option value="medium">Medium</option>
            <option value="high">High</option>
          </Select>
        </Field>
        <Field label="IP address" className="w-64">
          <Input
            value={ip}
            onChange={(e) => setIp(e.target.value)}
            placeholder="e.g. 203.0.113.7"
            inputMode="text"
            autoComplete="off"
          />
        </Field>
      </div>
      {logs.isError && !logs.data ? (
        <SecurityError error={logs.error} onRetry={() => void logs.refetch()} retrying={logs.isFetching} />
      ) : !logs.data ? (
        <Skeleton className="h-64" />
      ) : logs.data.length === 0 ? (
        <EmptyState>
          {risk !== 'all' || deferredIp ? 'No requests match these filters.' : 'No requests logged yet.'}
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-olive-700">
          <table className="w-full text-left text-sm" data-testid="security-logs">
            <caption className="sr-only">The newest requests through the gateway</caption>
            <thead className="bg-olive-900 text-xs uppercase tracking-wide text-khaki-300">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Time
                </th>
                <th scope="col" className="px-3 py-2">
                  IP
                </th>
                <th scope="col" className="px-3 py-2">
                  Request
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Status
                </th>
                <th scope="col" className="px-3 py-2">
                  Risk
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Time (ms)
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-olive-700">
              {logs.data.map((l) => (
                <tr key={l.id} data-ip={l.ip}>
                  <td className="whitespace-nowrap px-3 py-2 text-khaki-200">{formatDateTime(l.timestamp)}</td>
                  <td className="px-3 py-2 font-mono text-khaki-50">{l.ip}</td>
                  <td className="max-w-md px-3 py-2">
                    <span className="font-mono text-khaki-50">
                      {l.method} <span className="break-all">{l.path}</span>
                    </span>
                    <span className="block truncate text-xs text-khaki-300" title={l.userAgent}>
                      {l.userAgent || 'No user agent'}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-right font-mono text-khaki-100">{l.statusCode}</td>
                  <td className="px-3 py-2">
                    <RiskBadge level={l.riskLevel} />
                  </td>
                  <td className="px-3 py-2 text-right font-mono text-khaki-100">
                    {l.responseTime.toLocaleString('en-US', { maximumFractionDigits: 1 })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
