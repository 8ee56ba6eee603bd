// The footer every order form dialog shares: Cancel, then the submit button of the dialog's form
// (outside the <form>, so tied to it by id), with its busy text while the request runs.
import type { ReactNode } from 'react';
import { Button } from '@shop/ui';

export function FormFooter({
  onCancel,
  form,
  disabled,
  busy,
  loadingText,
  children,
}: {
  onCancel: () => void;
  form: string;
  disabled?: boolean;
  busy: boolean;
  loadingText: string;
  children: ReactNode;
}) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={form} disabled={disabled} loading={busy} loadingText={loadingText}>
        {children}
      </Button>
    </>
  );
}
