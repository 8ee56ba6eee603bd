// Small pieces the security tabs share: risk and severity badges, one alert row, the error state.
import type { ReactNode } from 'react';
import { securityMessages, type AlertSeverity, type RiskLevel, type SecurityAlert } from '@shop/contracts';
import { Badge, Button, ErrorState, type BadgeTone } from '@shop/ui';
import { formatDateTime, reasonOf, spaced } from './format.js';

const riskTone: Record<RiskLevel, BadgeTone> = { low: 'ok', medium: 'caution', high: 'alert' };
const severityTone: Record<AlertSeverity, BadgeTone> = {
  low: 'neutral',
  medium: 'caution',
  high: 'alert',
  critical: 'alert',
};

export const RiskBadge = ({ level }: { level: RiskLevel }) => <Badge tone={riskTone[level]}>{level}</Badge>;
export const SeverityBadge = ({ severity }: { severity: AlertSeverity }) => (
  <Badge tone={severityTone[severity]} className={severity === 'critical' ? 'ring-1 ring-alert-400' : undefined}>
    {severity}
  </Badge>
);

/** Spec §8: "Failed to fetch security data", shown as "Error Loading Security Data" with Retry. */
export function SecurityError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <ErrorState
      title={securityMessages.errorTitle}
      message={`${securityMessages.fetchFailed}: ${reasonOf(error)}`}
      onRetry={onRetry}
      retrying={retrying}
    />
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-olive-600 px-4 py-8 text-center text-sm text-khaki-300">
      {children}
    </p>
  );
}

/** One alert: description, severity, IP, type and time; Resolve, or who resolved it and when. */
export function AlertItem({
  alert,
  onResolve,
  resolving,
}: {
  alert: SecurityAlert;
  onResolve?: (id: string) => void;
  resolving?: boolean;
}) {
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-olive-700 bg-olive-900/60 p-3 sm:flex-row sm:items-start sm:justify-between"
      data-testid="security-alert"
    >
      <div className="flex min-w-0 flex-col gap-1">
        <p className="break-words text-sm font-semibold text-khaki-50">{alert.description}</p>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-khaki-300">
          <SeverityBadge severity={alert.severity} />
          <span>
            IP: <span className="font-mono text-khaki-100">{alert.ip || '—'}</span>
          </span>
          <span>Type: {spaced(alert.type)}</span>
          <span>{formatDateTime(alert.timestamp)}</span>
          {alert.count > 1 ? <span>Seen {alert.count.toLocaleString('en-US')} times</span> : null}
        </p>
        {alert.resolved ? (
          <p className="text-xs text-ok-400" data-testid="resolved-by">
            Resolved by {alert.resolvedBy ?? 'an administrator'} on {formatDateTime(alert.resolvedAt)}
          </p>
        ) : null}
      </div>
      {!alert.resolved && onResolve ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onResolve(alert.id)}
          loading={resolving}
          loadingText="Resolving..."
        >
          Resolve
        </Button>
      ) : null}
    </li>
  );
}
