// /debug/email (admin part A §2 Email diagnostics page): Check Configuration, Check Queue Status, Send
// Test Email, Failed Emails (Check Failed, Retry Failed), Process Email Queue Now and Run Full Diagnosis
// (configuration, queue and failed checks in sequence). Drawn only for a signed-in admin
// (EmailDiagnosticsApp); every call is also refused by the gateway without a session.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '@shop/ui/router';
import { ArrowLeft } from 'lucide-react';
import { testEmailBodySchema, testEmailDefaults, type AdminPublic } from '@shop/contracts';
import { Button, Card, Field, Input, Textarea } from '@shop/ui';
import {
  checkConfiguration,
  checkFailed,
  checkQueue,
  processQueue,
  retryFailed,
  sendTestEmail,
  type DiagnosticResult,
} from './api.js';
import { ResultPanel } from './ResultPanel.js';

type Key = 'configuration' | 'queue' | 'test' | 'failed' | 'retry' | 'process' | 'full';

function DiagnosticCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const id = `diag-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Card className="flex flex-col p-4" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-khaki-50">
        {title}
      </h2>
      <p className="mb-3 text-sm text-khaki-200">{description}</p>
      {children}
    </Card>
  );
}

export function EmailDiagnosticsPage({ user }: { user: AdminPublic }) {
  const [results, setResults] = useState<Partial<Record<Key, DiagnosticResult>>>({});
  const [fullSteps, setFullSteps] = useState<DiagnosticResult[]>([]);
  const [busy, setBusy] = useState<Key | null>(null);
  const [test, setTest] = useState<{ to: string; subject: string; message: string }>({
    to: user.email,
    subject: testEmailDefaults.subject,
    message: testEmailDefaults.message,
  });
  const [testError, setTestError] = useState<string | undefined>();

  async function run(key: Key, work: () => Promise<DiagnosticResult>) {
    setBusy(key);
    try {
      const result = await work();
      setResults((r) => ({ ...r, [key]: result }));
    } finally {
      setBusy(null);
    }
  }

  async function fullDiagnosis() {
    setBusy('full');
    setFullSteps([]);
    const steps: DiagnosticResult[] = [];
    try {
      for (const step of [checkConfiguration, checkQueue, checkFailed]) {
        steps.push(await step());
        setFullSteps([...steps]);
      }
      const ok = steps.every((s) => s.success);
      setResults((r) => ({
        ...r,
        full: {
          success: ok,
          summary: ok ? 'Configuration, queue and failed emails checked' : 'Some checks failed',
          error: ok
            ? null
            : steps
                .filter((s) => !s.success)
                .map((s) => s.error)
                .join('; '),
          timestamp: new Date().toISOString(),
          data: { configuration: steps[0]?.data, queue: steps[1]?.data, failed: steps[2]?.data },
        },
      }));
    } finally {
      setBusy(null);
    }
  }

  function submitTest(event: FormEvent) {
    event.preventDefault();
    const parsed = testEmailBodySchema.safeParse(test);
    if (!parsed.success) {
      setTestError(parsed.error.issues[0]?.message);
      return;
    }
    setTestError(undefined);
    void run('test', () => sendTestEmail(parsed.data));
  }

  const action = (key: Key, label: string, work: () => Promise<DiagnosticResult>, loadingText: string) => (
    <Button
      variant="secondary"
      onClick={() => void run(key, work)}
      loading={busy === key}
      loadingText={loadingText}
      disabled={busy !== null}
    >
      {label}
    </Button>
  );

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8" data-testid="email-diagnostics">
      <div>
        <Link
          to="/admin"
          className="inline-flex items-center gap-1 text-sm text-khaki-200 hover:text-khaki-50 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to the back office
        </Link>
        <h1 className="mt-3 font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">
          Email Diagnostics
        </h1>
        <p className="text-sm text-khaki-200">
          Signed in as {user.email}. Check how outgoing email is set up and what the queue is doing.
        </p>
      </div>
      <DiagnosticCard
        title="Run Full Diagnosis"
        description="Checks the configuration, the queue and the failed emails, one after another."
      >
        <div>
          <Button
            onClick={() => void fullDiagnosis()}
            loading={busy === 'full'}
            loadingText="Running Diagnosis..."
            disabled={busy !== null}
          >
            Run Full Diagnosis
          </Button>
        </div>
        {busy === 'full' || !results.full ? (
          fullSteps.map((s, i) => (
            <ResultPanel key={i} result={s} label={['Configuration', 'Queue', 'Failed emails'][i]} />
          ))
        ) : (
          <ResultPanel result={results.full} label="Full diagnosis" />
        )}
      </DiagnosticCard>
      <div className="grid gap-4 md:grid-cols-2">
        <DiagnosticCard
          title="Check Configuration"
          description="Transport, server, port, sender and TLS (never a password)."
        >
          <div>{action('configuration', 'Check Configuration', checkConfiguration, 'Checking...')}</div>
          <ResultPanel result={results.configuration} label="Configuration" />
        </DiagnosticCard>
        <DiagnosticCard
          title="Check Queue Status"
          description="Pending, sending, sent and failed in the last 24 hours, oldest pending."
        >
          <div>{action('queue', 'Check Queue Status', checkQueue, 'Checking...')}</div>
          <ResultPanel result={results.queue} label="Queue" />
        </DiagnosticCard>
        <DiagnosticCard
          title="Failed Emails"
          description="Emails that failed after their last attempt; Retry Failed queues each one again."
        >
          <div className="flex flex-wrap gap-2">
            {action('failed', 'Check Failed', checkFailed, 'Checking...')}
            {action('retry', 'Retry Failed', retryFailed, 'Retrying...')}
          </div>
          <ResultPanel result={results.failed} label="Failed emails" />
          <ResultPanel result={results.retry} label="Retry" />
        </DiagnosticCard>
        <DiagnosticCard
          title="Process Email Queue Now"
          description="Sends every email that is due now instead of waiting for the next pass."
        >
          <div>{action('process', 'Process Email Queue Now', processQueue, 'Processing...')}</div>
          <ResultPanel result={results.process} label="Process queue" />
        </DiagnosticCard>
      </div>
      <DiagnosticCard
        title="Send Test Email"
        description="Sends one email through the queue and the mail server, and waits for the outcome."
      >
        <form className="flex flex-col gap-4" onSubmit={submitTest} noValidate aria-label="Send test email">
          <Field label="To" required error={testError}>
            <Input
              type="email"
              value={test.to}
              onChange={(e) => setTest({ ...test, to: e.target.value })}
              autoComplete="email"
            />
          </Field>
          <Field label="Subject" required>
            <Input value={test.subject} onChange={(e) => setTest({ ...test, subject: e.target.value })} />
          </Field>
          <Field label="Message" required>
            <Textarea value={test.message} rows={4} onChange={(e) => setTest({ ...test, message: e.target.value })} />
          </Field>
          <div>
            <Button type="submit" loading={busy === 'test'} loadingText="Sending..." disabled={busy !== null}>
              Send Test Email
            </Button>
          </div>
        </form>
        <ResultPanel result={results.test} label="Test email" />
      </DiagnosticCard>
    </div>
  );
}
