// Logs (spec §2.3): filters by risk level and by IP; time, IP, method and path (with the user agent),
// status code, risk level and response time in ms. The newest 100 (spec §9).
import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Cell, DataTable, Field, Input, Select, Skeleton } from '@shop/ui';
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
        <DataTable
          data-testid="security-logs"
          caption="The newest requests through the gateway"
          columns={[
            'Time',
            'IP',
            'Request',
            { label: 'Status', align: 'right' },
            'Risk',
            { label: 'Time (ms)', align: 'right' },
          ]}
        >
          {logs.data.map((l) => (
            <tr key={l.id} data-ip={l.ip}>
              <Cell className="whitespace-nowrap text-khaki-200">{formatDateTime(l.timestamp)}</Cell>
              <Cell className="font-mono text-khaki-50">{l.ip}</Cell>
              <Cell className="max-w-md">
                <span className="font-mono text-khaki-50">
                  {l.method} <span className="break-all">{l.path}</span>
                </span>
                <span className="block truncate text-xs text-khaki-300" title={l.userAgent}>
                  {l.userAgent || 'No user agent'}
                </span>
              </Cell>
              <Cell align="right" className="font-mono text-khaki-100">
                {l.statusCode}
              </Cell>
              <Cell>
                <RiskBadge level={l.riskLevel} />
              </Cell>
              <Cell align="right" className="font-mono text-khaki-100">
                {l.responseTime.toLocaleString('en-US', { maximumFractionDigits: 1 })}
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
