// The admin settings modal on the dashboard (spec §2, §3): the address that receives notifications and
// whether they are sent. Stored by the email service (GET/PUT /api/admin/settings).
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as Switch from '@radix-ui/react-switch';
import { adminSettingsSchema } from '@shop/contracts';
import { ErrorState, Field, Input, Modal, Spinner, toast } from '@shop/ui';
import { fetchAdminSettings, ordersKeys, saveAdminSettings } from './api.js';
import { FormFooter } from './FormFooter.js';

export function SettingsModal({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ordersKeys.settings, queryFn: ({ signal }) => fetchAdminSettings(signal) });
  const [email, setEmail] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  // A new answer from the server fills the form (set while rendering, not in an effect afterwards).
  const [loaded, setLoaded] = useState(settings.data);
  if (settings.data && settings.data !== loaded) {
    setLoaded(settings.data);
    setEmail(settings.data.notificationEmail);
    setEnabled(settings.data.emailNotificationsEnabled);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = adminSettingsSchema.safeParse({
      notificationEmail: email.trim(),
      emailNotificationsEnabled: enabled,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await saveAdminSettings(parsed.data);
      queryClient.setQueryData(ordersKeys.settings, parsed.data);
      toast.success('Settings saved successfully!');
      onClose();
    } catch {
      toast.error('Failed to save settings. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Admin Settings"
      description="Where the shop sends new-order notifications."
      footer={
        <FormFooter
          onCancel={onClose}
          form="admin-settings-form"
          disabled={!settings.data}
          busy={busy}
          loadingText="Saving..."
        >
          Save Settings
        </FormFooter>
      }
    >
      {settings.isPending ? (
        <Spinner label="Loading the settings" />
      ) : settings.isError ? (
        <ErrorState
          title="Settings could not be loaded"
          message={settings.error.message}
          onRetry={() => settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <form
          id="admin-settings-form"
          className="flex flex-col gap-5"
          onSubmit={submit}
          noValidate
          aria-label="Admin settings"
        >
          <Field label="Notification email" required error={error}>
            <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          </Field>
          <div className="flex items-center justify-between gap-4">
            <label htmlFor="notifications-enabled" className="text-sm font-semibold text-khaki-100">
              Email notifications
              <span className="block text-xs font-normal text-khaki-300">
                {enabled ? 'On: new orders are emailed to this address' : 'Off: nothing is sent'}
              </span>
            </label>
            <Switch.Root
              id="notifications-enabled"
              checked={enabled}
              onCheckedChange={setEnabled}
              className="relative h-6 w-11 shrink-0 rounded-full border border-olive-500 bg-ink-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-300 data-[state=checked]:bg-brass-400"
            >
              <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-khaki-100 transition-transform data-[state=checked]:translate-x-5 motion-reduce:transition-none" />
            </Switch.Root>
          </div>
        </form>
      )}
    </Modal>
  );
}
