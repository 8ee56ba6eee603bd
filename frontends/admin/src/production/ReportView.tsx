// One production report: the overall banner, the totals, the recommendations and the results grouped by
// category (admin part A §2, §3 Production report). Each result's details open as JSON.
import { AlertOctagon, AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import type { CheckResult, ProductionReport } from '@shop/contracts';
import { Badge, Card, cn, type BadgeTone } from '@shop/ui';

const banner: Record<
  ProductionReport['overall'],
  { title: string; text: string; box: string; Icon: typeof CheckCircle2 }
> = {
  ready: {
    title: 'Ready for production',
    text: 'Every check passed.',
    box: 'border-ok-600 bg-ok-600/15',
    Icon: CheckCircle2,
  },
  issues: {
    title: 'Issues found',
    text: 'The shop runs, but some checks need attention.',
    box: 'border-caution-400 bg-caution-400/10',
    Icon: AlertTriangle,
  },
  critical: {
    title: 'Critical issues',
    text: 'Fix the critical failures before taking real orders.',
    box: 'border-alert-400 bg-alert-600/20',
    Icon: AlertOctagon,
  },
};

const statusTone: Record<CheckResult['status'], BadgeTone> = { pass: 'ok', warning: 'caution', fail: 'alert' };
const statusLabel: Record<CheckResult['status'], string> = { pass: 'Pass', warning: 'Warning', fail: 'Fail' };

function groupByCategory(results: readonly CheckResult[]): [string, CheckResult[]][] {
  const groups = new Map<string, CheckResult[]>();
  for (const r of results) groups.set(r.category, [...(groups.get(r.category) ?? []), r]);
  return [...groups.entries()];
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function ReportView({ report }: { report: ProductionReport }) {
  const b = banner[report.overall];
  const totals: [string, number][] = [
    ['Total checks', report.summary.total],
    ['Passed', report.summary.passed],
    ['Warnings', report.summary.warnings],
    ['Failed', report.summary.failed],
  ];
  return (
    <div className="flex flex-col gap-6" data-testid="production-report" data-overall={report.overall}>
      <div role="status" className={cn('flex items-start gap-3 rounded-md border p-4', b.box)}>
        <b.Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-khaki-50" />
        <div>
          <p className="text-lg font-bold text-khaki-50">{b.title}</p>
          <p className="text-sm text-khaki-100">
            {b.text} Checked {new Date(report.timestamp).toLocaleString('en-US')} ({report.environment},{' '}
            {(report.durationMs / 1000).toFixed(1)} s).
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {totals.map(([label, value]) => (
          <Card key={label} className="p-4">
            <dt className="text-sm text-khaki-300">{label}</dt>
            <dd className="font-display text-3xl font-bold text-khaki-50">{value}</dd>
          </Card>
        ))}
      </dl>
      {report.recommendations.length ? (
        <section aria-labelledby="production-recommendations" className="flex flex-col gap-2">
          <h3 id="production-recommendations" className="text-lg font-semibold text-khaki-50">
            Recommendations
          </h3>
          <ul className="list-disc space-y-1.5 pl-6 text-sm text-khaki-100">
            {report.recommendations.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {groupByCategory(report.results).map(([category, results]) => (
        <section
          key={category}
          aria-labelledby={`category-${slug(category)}`}
          className="flex flex-col gap-2"
          data-category={category}
        >
          <h3 id={`category-${slug(category)}`} className="text-lg font-semibold text-khaki-50">
            {category}
          </h3>
          <ul className="flex flex-col gap-2">
            {results.map((r) => (
              <li key={r.test} data-status={r.status}>
                <Card className="p-3">
                  <div className="flex flex-wrap items-center gap-3">
                    <Badge tone={statusTone[r.status]}>
                      {r.status === 'pass' ? (
                        <CheckCircle2 aria-hidden="true" className="size-3.5" />
                      ) : (
                        <XCircle aria-hidden="true" className="size-3.5" />
                      )}
                      {statusLabel[r.status]}
                      {r.critical ? ' (critical)' : ''}
                    </Badge>
                    <span className="font-semibold text-khaki-50">{r.test}</span>
                  </div>
                  <p className="mt-1 text-sm text-khaki-100">{r.message}</p>
                  {r.recommendation && r.status !== 'pass' ? (
                    <p className="mt-1 text-sm text-khaki-300">{r.recommendation}</p>
                  ) : null}
                  {r.details !== undefined ? (
                    <details className="mt-2 text-sm">
                      <summary className="cursor-pointer text-khaki-200 focus-visible:outline-2 focus-visible:outline-brass-300">
                        Details
                      </summary>
                      <pre
                        tabIndex={0}
                        className="mt-2 max-h-64 overflow-auto rounded bg-ink-950 p-2 text-xs text-khaki-100 focus-visible:outline-2 focus-visible:outline-brass-300"
                      >
                        {JSON.stringify(r.details, null, 2)}
                      </pre>
                    </details>
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
