// One diagnostic's outcome (admin part A §2 Email diagnostics): success or failure, a timestamp, the
// error text and the answer as expandable JSON.
import { CheckCircle2, XCircle } from 'lucide-react';
import { cn } from '@shop/ui';
import type { DiagnosticResult } from './api.js';

export function ResultPanel({ result, label }: { result: DiagnosticResult | undefined; label: string }) {
  if (!result) return null;
  const Icon = result.success ? CheckCircle2 : XCircle;
  return (
    <div
      role="status"
      aria-label={`${label} result`}
      data-success={result.success}
      className={cn(
        'mt-3 rounded-md border p-3 text-sm',
        result.success ? 'border-ok-600 bg-ok-600/15' : 'border-alert-400 bg-alert-600/20',
      )}
    >
      <p className="flex items-center gap-2 font-semibold text-khaki-50">
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        {result.success ? 'Success' : 'Failed'}: {result.summary}
      </p>
      <p className="mt-1 text-xs text-khaki-200">{new Date(result.timestamp).toLocaleString('en-US')}</p>
      {result.error ? <p className="mt-1 text-khaki-50">Error: {result.error}</p> : null}
      {result.data !== null && result.data !== undefined ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-khaki-200 focus-visible:outline-2 focus-visible:outline-brass-300">
            Details (JSON)
          </summary>
          <pre
            tabIndex={0}
            className="mt-2 max-h-64 overflow-auto rounded bg-ink-950 p-2 text-xs text-khaki-100 focus-visible:outline-2 focus-visible:outline-brass-300"
          >
            {JSON.stringify(result.data, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
