// Alerts (spec §2.3): unresolved (default), resolved or all; each with description, severity, IP, type
// and time; Resolve on an open alert, the resolved-by line on a resolved one. A failed resolve is only
// logged (spec §8).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, Select, Skeleton } from '@shop/ui';
import { fetchSecurityAlerts, resolveAlert, securityKeys, type AlertFilter } from './api.js';
import { AlertItem, EmptyState, SecurityError } from './parts.js';

const emptyText: Record<AlertFilter, string> = {
  false: 'No unresolved alerts. All quiet.',
  true: 'No resolved alerts yet.',
  all: 'No security alerts yet.',
};

export function AlertsTab() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<AlertFilter>('false');
  const alerts = useQuery({
    queryKey: securityKeys.alerts(filter),
    queryFn: ({ signal }) => fetchSecurityAlerts(filter, signal),
    refetchInterval: 15_000,
  });
  const resolve = useMutation({
    mutationFn: (id: string) => resolveAlert(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: securityKeys.all }),
    onError: (error) => console.error('Failed to resolve the security alert', error),
  });
  return (
    <div className="flex flex-col gap-4">
      <Field label="Show" className="w-48">
        <Select value={filter} onChange={(e) => setFilter(e.target.value as AlertFilter)}>
          <option value="false">Unresolved</option>
          <option value="true">Resolved</option>
          <option value="all">All</option>
        </Select>
      </Field>
      {alerts.isError && !alerts.data ? (
        <SecurityError error={alerts.error} onRetry={() => void alerts.refetch()} retrying={alerts.isFetching} />
      ) : !alerts.data ? (
        <Skeleton className="h-40" />
      ) : alerts.data.length === 0 ? (
        <EmptyState>{emptyText[filter]}</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="security-alerts">
          {alerts.data.map((a) => (
            <AlertItem
              key={a.id}
              alert={a}
              onResolve={(id) => resolve.mutate(id)}
              resolving={resolve.isPending && resolve.variables === a.id}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
