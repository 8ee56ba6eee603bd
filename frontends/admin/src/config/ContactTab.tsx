// Contact & Support (admin part A §2 Site configuration): support email; phone with its show toggle;
// weekday and weekend hours with their show toggle; a preview of what the public sees. The phone and
// hours inputs stay disabled until their toggles are on. Saved with POST /api/config/contact.
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { contactConfigSchema, publicContactConfig, type ContactConfig } from '@shop/contracts';
import { Card, ErrorState, Field, Input, Spinner } from '@shop/ui';
import { configKeys, fetchContactConfig, saveContactConfig } from './api.js';
import { SaveBar, useSave } from './SaveBar.js';
import { Toggle } from './Toggle.js';

function Preview({ config }: { config: ContactConfig }) {
  const shown = publicContactConfig(config);
  return (
    <Card className="p-4" aria-labelledby="contact-preview-title">
      <h3 id="contact-preview-title" className="text-sm font-semibold uppercase tracking-wide text-brass-300">
        Public preview
      </h3>
      <dl className="mt-3 grid gap-2 text-sm">
        <div>
          <dt className="text-khaki-300">Email</dt>
          <dd className="text-khaki-50">{shown.supportEmail || '—'}</dd>
        </div>
        {shown.supportPhone ? (
          <div>
            <dt className="text-khaki-300">Phone</dt>
            <dd className="text-khaki-50">{shown.supportPhone}</dd>
          </div>
        ) : null}
        {shown.supportHours ? (
          <div>
            <dt className="text-khaki-300">Hours</dt>
            <dd className="text-khaki-50">
              Weekdays: {shown.supportHours.weekday}
              <br />
              Weekends: {shown.supportHours.weekend}
            </dd>
          </div>
        ) : null}
      </dl>
    </Card>
  );
}

export function ContactTab() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: configKeys.contact, queryFn: ({ signal }) => fetchContactConfig(signal) });
  const [form, setForm] = useState<ContactConfig | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSave();

  // A new answer from the server replaces the form (set while rendering, not in an effect afterwards).
  const [loaded, setLoaded] = useState<ContactConfig | undefined>();
  if (query.data && query.data !== loaded) {
    setLoaded(query.data);
    setForm(query.data);
  }

  if (query.isPending) return <Spinner label="Loading the contact details" />;
  if (query.isError)
    return (
      <ErrorState
        title="The contact details could not be loaded"
        message={query.error.message}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  if (!form) return null;

  const set = (patch: Partial<ContactConfig>) => setForm({ ...form, ...patch });
  const setHours = (patch: Partial<ContactConfig['supportHours']>) =>
    setForm({ ...form, supportHours: { ...form.supportHours, ...patch } });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = contactConfigSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    void save.run(async () => {
      const saved = await saveContactConfig(parsed.data);
      queryClient.setQueryData(configKeys.contact, saved);
    });
  }

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_18rem]"
      onSubmit={submit}
      noValidate
      aria-label="Contact and support details"
    >
      <div className="flex flex-col gap-5">
        <Field label="Support email" required error={errors.supportEmail}>
          <Input
            type="email"
            value={form.supportEmail}
            onChange={(e) => set({ supportEmail: e.target.value })}
            autoComplete="email"
          />
        </Field>
        <Toggle label="Show phone number" checked={form.showPhone} onChange={(showPhone) => set({ showPhone })} />
        <Field label="Support phone" error={errors.supportPhone}>
          <Input
            type="tel"
            value={form.supportPhone}
            disabled={!form.showPhone}
            onChange={(e) => set({ supportPhone: e.target.value })}
            autoComplete="tel"
          />
        </Field>
        <Toggle
          label="Show support hours"
          checked={form.supportHours.showHours}
          onChange={(showHours) => setHours({ showHours })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Weekday hours" error={errors['supportHours.weekday']}>
            <Input
              value={form.supportHours.weekday}
              disabled={!form.supportHours.showHours}
              onChange={(e) => setHours({ weekday: e.target.value })}
              placeholder="Mon-Fri 9am-5pm CT"
            />
          </Field>
          <Field label="Weekend hours" error={errors['supportHours.weekend']}>
            <Input
              value={form.supportHours.weekend}
              disabled={!form.supportHours.showHours}
              onChange={(e) => setHours({ weekend: e.target.value })}
              placeholder="Closed"
            />
          </Field>
        </div>
        <SaveBar {...save} label="Save Contact Details" />
      </div>
      <Preview config={form} />
    </form>
  );
}
