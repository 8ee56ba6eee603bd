// Production readiness (admin part A §2, §4, §8): Run Check, then the report. When the check cannot be
// reached, the Connection Error panel shows why ('HTTP {status}: {text}' or the network message) with a
// Retry that waits 1 s x 2^(attempt-1), at most 5 s, and the synthetic critical report below it.
import { useEffect, useRef, useState } from 'react';
import { RefreshCw, ShieldCheck } from 'lucide-react';
import { productionRetryDelayMs, type ProductionReport } from '@shop/contracts';
import { Alert, Button } from '@shop/ui';
import { connectionFailureReport, runProductionCheck } from './api.js';
import { ReportView } from './ReportView.js';

export function ProductionView() {
  const [report, setReport] = useState<ProductionReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [waitSeconds, setWaitSeconds] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function run(retryAttempt = 0) {
    setRunning(true);
    setWaitSeconds(null);
    try {
      setReport(await runProductionCheck());
      setError(null);
      setAttempt(0);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setError(message);
      setReport(connectionFailureReport(message));
      setAttempt(retryAttempt);
    } finally {
      setRunning(false);
    }
  }

  function retry() {
    const next = attempt + 1;
    const delay = productionRetryDelayMs(next);
    clearTimeout(timer.current);
    setWaitSeconds(delay / 1000);
    setRunning(true);
    timer.current = setTimeout(() => void run(next), delay);
  }

  return (
    <div className="flex flex-col gap-6" data-testid="production-view">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
            Production Readiness
          </h2>
          <p className="text-sm text-khaki-200">
            Checks every service, the database, messaging, email, payments, security settings and site configuration.
          </p>
        </div>
        <Button
          onClick={() => void run()}
          loading={running && waitSeconds === null}
          loadingText="Running Check..."
          disabled={running}
        >
          <ShieldCheck aria-hidden="true" className="size-4" /> Run Check
        </Button>
      </div>
      {error ? (
        <Alert tone="error" title="Connection Error" data-testid="connection-error">
          <p>{error}</p>
          <div className="mt-2 flex items-center gap-3">
            <Button size="sm" variant="secondary" onClick={retry} disabled={running}>
              <RefreshCw aria-hidden="true" className="size-4" /> Retry
            </Button>
            {waitSeconds !== null ? (
              <span>Retrying in {waitSeconds} s...</span>
            ) : attempt > 0 ? (
              <span>Attempt {attempt + 1} failed.</span>
            ) : null}
          </div>
        </Alert>
      ) : null}
      {report ? (
        <ReportView report={report} />
      ) : !error ? (
        <p className="text-khaki-200">Run the check to see whether the shop is ready for production.</p>
      ) : null}
    </div>
  );
}
