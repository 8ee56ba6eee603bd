// Business Registration (admin part A §2 Site configuration, §3 Business config and Tax permit): names,
// EIN (NN-NNNNNNN), registered address (country US by default) and tax permits added and removed
// (jurisdiction, permit number, type 'Sales Tax' by default, expiration date, active). Saved whole with
// POST /api/config/business; the public part appears on the storefront's /business page.
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import {
  businessConfigSchema,
  defaultTaxPermitType,
  type BusinessAddress,
  type BusinessConfig,
  type TaxPermit,
} from '@shop/contracts';
import { Button, Card, ErrorState, Field, Input, Spinner } from '@shop/ui';
import { configKeys, fetchBusinessConfig, saveBusinessConfig } from './api.js';
import { SaveBar, useSave } from './SaveBar.js';
import { Toggle } from './Toggle.js';

const addressFields: [keyof BusinessAddress, string, string?][] = [
  ['line1', 'Address line 1', 'address-line1'],
  ['line2', 'Address line 2', 'address-line2'],
  ['city', 'City', 'address-level2'],
  ['state', 'State', 'address-level1'],
  ['postalCode', 'Postal code', 'postal-code'],
  ['country', 'Country', 'country'],
];

const newPermit = (): TaxPermit => ({
  id: '',
  jurisdiction: '',
  permitNumber: '',
  type: defaultTaxPermitType,
  expirationDate: '',
  isActive: true,
});

function PermitRow({
  permit,
  index,
  errors,
  onChange,
  onRemove,
}: {
  permit: TaxPermit;
  index: number;
  errors: Record<string, string>;
  onChange: (p: TaxPermit) => void;
  onRemove: () => void;
}) {
  const at = (field: string) => errors[`taxPermits.${index}.${field}`];
  const set = (patch: Partial<TaxPermit>) => onChange({ ...permit, ...patch });
  return (
    <Card className="flex flex-col gap-4 p-4" data-testid="tax-permit">
      <div className="flex items-center justify-between gap-3">
        <h4 className="text-sm font-semibold text-khaki-50">Tax permit {index + 1}</h4>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove tax permit ${index + 1}`}>
          <Trash2 aria-hidden="true" className="size-4" /> Remove
        </Button>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Jurisdiction" required error={at('jurisdiction')}>
          <Input
            value={permit.jurisdiction}
            onChange={(e) => set({ jurisdiction: e.target.value })}
            placeholder="Texas"
          />
        </Field>
        <Field label="Permit number" required error={at('permitNumber')}>
          <Input value={permit.permitNumber} onChange={(e) => set({ permitNumber: e.target.value })} />
        </Field>
        <Field label="Type" error={at('type')}>
          <Input value={permit.type} onChange={(e) => set({ type: e.target.value })} />
        </Field>
        <Field label="Expiration date" error={at('expirationDate')}>
          <Input type="date" value={permit.expirationDate} onChange={(e) => set({ expirationDate: e.target.value })} />
        </Field>
      </div>
      <Toggle label="Active" checked={permit.isActive} onChange={(isActive) => set({ isActive })} />
    </Card>
  );
}

export function BusinessTab() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: configKeys.business, queryFn: ({ signal }) => fetchBusinessConfig(signal) });
  const [form, setForm] = useState<BusinessConfig | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSave();

  // A new answer from the server replaces the form (set while rendering, not in an effect afterwards).
  const [loaded, setLoaded] = useState<BusinessConfig | undefined>();
  if (query.data && query.data !== loaded) {
    setLoaded(query.data);
    setForm(query.data);
  }

  if (query.isPending) return <Spinner label="Loading the business registration" />;
  if (query.isError)
    return (
      <ErrorState
        title="The business registration could not be loaded"
        message={query.error.message}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  if (!form) return null;

  const set = (patch: Partial<BusinessConfig>) => setForm({ ...form, ...patch });
  const setAddress = (patch: Partial<BusinessAddress>) =>
    set({ businessAddress: { ...form.businessAddress, ...patch } });
  const setPermits = (taxPermits: TaxPermit[]) => set({ taxPermits });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = businessConfigSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    void save.run(async () => {
      const saved = await saveBusinessConfig(parsed.data);
      queryClient.setQueryData(configKeys.business, saved);
    });
  }

  return (
    <form className="flex flex-col gap-6" onSubmit={submit} noValidate aria-label="Business registration">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Business name" error={errors.businessName}>
          <Input
            value={form.businessName}
            onChange={(e) => set({ businessName: e.target.value })}
            autoComplete="organization"
          />
        </Field>
        <Field label="Legal name" error={errors.legalName}>
          <Input value={form.legalName} onChange={(e) => set({ legalName: e.target.value })} />
        </Field>
        <Field label="EIN" hint="Employer Identification Number, written NN-NNNNNNN" error={errors.ein}>
          <Input
            value={form.ein}
            onChange={(e) => set({ ein: e.target.value })}
            placeholder="12-3456789"
            inputMode="numeric"
          />
        </Field>
      </div>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold text-khaki-50">Registered address</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {addressFields.map(([key, label, autoComplete]) => (
            <Field key={key} label={label} error={errors[`businessAddress.${key}`]}>
              <Input
                value={form.businessAddress[key]}
                onChange={(e) => setAddress({ [key]: e.target.value })}
                autoComplete={autoComplete}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      <section aria-labelledby="tax-permits-title" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h3 id="tax-permits-title" className="text-base font-semibold text-khaki-50">
            Tax permits
          </h3>
          <Button variant="secondary" size="sm" onClick={() => setPermits([...form.taxPermits, newPermit()])}>
            <Plus aria-hidden="true" className="size-4" /> Add Tax Permit
          </Button>
        </div>
        {form.taxPermits.length === 0 ? (
          <p className="text-sm text-khaki-300">
            No tax permits yet. Add one for each state where you collect sales tax.
          </p>
        ) : null}
        {form.taxPermits.map((permit, index) => (
          <PermitRow
            key={permit.id || `new-${index}`}
            permit={permit}
            index={index}
            errors={errors}
            onChange={(next) => setPermits(form.taxPermits.map((p, i) => (i === index ? next : p)))}
            onRemove={() => setPermits(form.taxPermits.filter((_, i) => i !== index))}
          />
        ))}
      </section>
      <SaveBar {...save} label="Save Business Registration" />
    </form>
  );
}
