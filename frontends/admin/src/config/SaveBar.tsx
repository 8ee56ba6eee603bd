// The save row of both configuration tabs: the Save button, the saved indicator for 3 seconds (§9),
// and the spec's failure message with the server's reason (§8).
import { useEffect, useRef, useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { Alert, Button } from '@shop/ui';
import { AdminApiError } from '../api.js';
import { saveFailedMessage, savedIndicatorMs } from './api.js';

/** Runs a save and keeps the indicator and error state for the SaveBar. */
export function useSave() {
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function run(work: () => Promise<unknown>) {
    setSaving(true);
    setError(null);
    setSaved(false);
    clearTimeout(timer.current);
    try {
      await work();
      setSaved(true);
      timer.current = setTimeout(() => setSaved(false), savedIndicatorMs);
    } catch (err) {
      setError(
        err instanceof AdminApiError && err.status === 400
          ? err.message
          : err instanceof Error
            ? err.message
            : String(err),
      );
    } finally {
      setSaving(false);
    }
  }
  return { saving, saved, error, run };
}

export function SaveBar({
  saving,
  saved,
  error,
  label,
}: {
  saving: boolean;
  saved: boolean;
  error: string | null;
  label: string;
}) {
  return (
    <div className="flex flex-col gap-3">
      {error ? (
        <Alert tone="error" title={saveFailedMessage}>
          {error}
        </Alert>
      ) : null}
      <div className="flex items-center gap-4">
        <Button type="submit" loading={saving} loadingText="Saving...">
          {label}
        </Button>
        <p role="status" className="flex items-center gap-1.5 text-sm font-semibold text-ok-400">
          {saved ? (
            <>
              <CheckCircle2 aria-hidden="true" className="size-4" /> Saved
            </>
          ) : null}
        </p>
      </div>
    </div>
  );
}
