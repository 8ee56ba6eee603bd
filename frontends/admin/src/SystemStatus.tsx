import { useQuery } from '@tanstack/react-query';
import { Activity, RefreshCw } from 'lucide-react';
import { Badge, Button, Card, CardBody, CardHeader, ErrorState, Skeleton, type BadgeTone } from '@shop/ui';
import { fetchShopHealth, serviceRows, type ServiceHealth } from './health.js';

const statusText: Record<ServiceHealth['status'], { label: string; tone: BadgeTone }> = {
  ready: { label: 'Ready', tone: 'ok' },
  not_ready: { label: 'Not ready', tone: 'caution' },
  unreachable: { label: 'Unreachable', tone: 'alert' },
};

const serviceTitles: Record<string, string> = {
  orders: 'Orders',
  payments: 'Payments',
  customers: 'Customers',
  support: 'Support',
  marketing: 'Marketing',
  security: 'Security',
  email: 'Email',
};

function checksText(checks: Record<string, unknown>): string {
  const entries = Object.entries(checks);
  return entries.length
    ? entries
        .map(([name, state]) => `${name === 'mongo' ? 'MongoDB' : name === 'nats' ? 'NATS' : name} ${String(state)}`)
        .join(' · ')
    : '';
}

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** Readiness of the seven services as the gateway sees them, refreshed every 15 s. */
export function SystemStatus() {
  const health = useQuery({
    queryKey: ['shop-health'],
    queryFn: ({ signal }) => fetchShopHealth(signal),
    refetchInterval: 15_000,
    retry: 1,
  });

  return (
    <Card aria-labelledby="system-status-title">
      <CardHeader className="flex-row items-center justify-between">
        <div className="flex items-center gap-2">
          <Activity aria-hidden="true" className="size-5 text-brass-400" />
          {/* The view's own heading: h2 under the back office's h1 (a CardTitle is an h3). */}
          <h2 id="system-status-title" className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50">
            System status
          </h2>
          {health.data ? (
            <Badge tone={health.data.status === 'ready' ? 'ok' : 'caution'} data-testid="overall-status">
              {health.data.status === 'ready' ? 'All systems ready' : 'Degraded'}
            </Badge>
          ) : null}
        </div>
        <div className="flex items-center gap-3">
          {health.dataUpdatedAt ? (
            <span className="hidden text-xs text-khaki-300 sm:inline">
              Updated {timeFormat.format(health.dataUpdatedAt)}
            </span>
          ) : null}
          <Button
            variant="ghost"
            size="sm"
            onClick={() => health.refetch()}
            loading={health.isFetching}
            loadingText="Checking..."
            aria-label="Refresh system status"
          >
            <RefreshCw aria-hidden="true" className="size-4" />
            Refresh
          </Button>
        </div>
      </CardHeader>
      <CardBody>
        {health.isPending ? (
          <ul aria-busy="true" aria-label="Loading system status" className="divide-y divide-olive-700">
            {Array.from({ length: 7 }, (_, i) => (
              <li key={i} className="flex items-center justify-between gap-4 py-3">
                <Skeleton className="h-5 w-32" />
                <Skeleton className="h-5 w-24" />
              </li>
            ))}
          </ul>
        ) : health.isError ? (
          <ErrorState
            title="System status unavailable"
            message={health.error.message}
            onRetry={() => health.refetch()}
            retrying={health.isFetching}
          />
        ) : (
          <ul className="divide-y divide-olive-700" data-testid="service-list">
            {serviceRows(health.data).map(({ name, health: service }) => {
              const state = service ? statusText[service.status] : { label: 'Unknown', tone: 'neutral' as const };
              return (
                <li
                  key={name}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3"
                  data-service={name}
                  data-status={service?.status ?? 'unknown'}
                >
                  <div className="min-w-40">
                    <p className="font-semibold text-khaki-50">{serviceTitles[name] ?? name}</p>
                    {service?.error ? <p className="text-sm text-alert-400">{service.error}</p> : null}
                    {service && !service.error && checksText(service.checks) ? (
                      <p className="text-xs text-khaki-300">{checksText(service.checks)}</p>
                    ) : null}
                  </div>
                  <div className="flex items-center gap-3">
                    {service ? <span className="font-mono text-sm text-khaki-200">{service.latencyMs} ms</span> : null}
                    <Badge tone={state.tone}>{state.label}</Badge>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
