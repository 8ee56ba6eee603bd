// Content Management (admin part B §2.1, §4, §5, §7, §8): collapsible sections (homepage open), the
// Unsaved changes indicator, Save Changes (disabled when clean or saving), Reset to Defaults after a
// confirmation, a loading state, "Error Loading Content" with Retry, a warning before leaving with unsaved
// changes, and the version history with restore. Save, reset and restore show the returned content.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, History, RotateCcw, Save } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormRegister, type FieldErrors } from 'react-hook-form';
import { contentMessages, formatMoney, itemTypes, type ContentResponse } from '@shop/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardBody,
  Checkbox,
  ErrorState,
  Field,
  Input,
  Modal,
  Skeleton,
  Textarea,
  toast,
} from '@shop/ui';
import {
  contentKeys,
  contentResolver,
  fetchContent,
  fetchVersions,
  fromForm,
  parseBasePrice,
  resetContent,
  restoreVersion,
  saveContent,
  toForm,
  type ContentForm,
} from './api.js';

function Section({
  id,
  title,
  open,
  onToggle,
  children,
}: {
  id: string;
  title: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  return (
    <Card>
      <h2>
        <button
          type="button"
          className="flex w-full items-center justify-between gap-3 rounded-lg px-5 py-4 text-left font-display text-lg font-bold uppercase tracking-wide text-khaki-50 hover:bg-olive-800 focus-visible:outline-2 focus-visible:outline-brass-300"
          aria-expanded={open}
          aria-controls={`content-section-${id}`}
          onClick={onToggle}
        >
          {title}
          <ChevronDown aria-hidden="true" className={`size-5 transition-transform ${open ? 'rotate-180' : ''}`} />
        </button>
      </h2>
      {open ? (
        <CardBody id={`content-section-${id}`} className="grid gap-4 border-t border-olive-700 md:grid-cols-2">
          {children}
        </CardBody>
      ) : null}
    </Card>
  );
}

type Errs = FieldErrors<ContentForm>;
const msg = (e: unknown) => (e as { message?: string } | undefined)?.message;

function ProductFields({ register, errors }: { register: UseFormRegister<ContentForm>; errors: Errs }) {
  return (
    <>
      {itemTypes.map((t) => (
        <fieldset
          key={t}
          className="flex flex-col gap-3 rounded-md border border-olive-700 p-4 md:col-span-2 lg:col-span-1"
          data-product={t}
        >
          <legend className="px-1 text-sm font-bold uppercase tracking-wide text-brass-300">{t}</legend>
          <Field label="Title" error={msg(errors.products?.[t]?.title)}>
            <Input {...register(`products.${t}.title`)} />
          </Field>
          <Field
            label="Base price (USD)"
            hint="From $ on the home page; a decimal, empty means 0"
            error={msg(errors.products?.[t]?.basePrice)}
          >
            <Input inputMode="decimal" {...register(`products.${t}.basePrice`)} />
          </Field>
          <Field label="Description" error={msg(errors.products?.[t]?.description)}>
            <Textarea rows={3} {...register(`products.${t}.description`)} />
          </Field>
          <Field label="Features" hint="One per line" error={msg(errors.products?.[t]?.features)}>
            <Textarea rows={3} {...register(`products.${t}.features`)} />
          </Field>
        </fieldset>
      ))}
    </>
  );
}

const switches = [
  ['aiGenerationEnabled', 'AI design tool', 'The AI Design Tool, its buttons, and POST /api/ai/generate-design'],
  ['manualDesignEnabled', 'Manual design methods', 'Describe it and Work with our team in the order flow'],
  ['fileUploadEnabled', 'File upload', 'The upload design method and POST /api/upload'],
  [
    'liveChatEnabled',
    'Message us',
    'A "Message us" entry on every page that opens the support form (there is no live chat)',
  ],
] as const;

function VersionHistory({
  onRestored,
  disabled,
}: {
  onRestored: (answer: ContentResponse) => void;
  disabled: boolean;
}) {
  const versions = useQuery({ queryKey: contentKeys.versions, queryFn: ({ signal }) => fetchVersions(signal) });
  const restore = useMutation({
    mutationFn: (v: { id: string; version: number }) => restoreVersion(v.id),
    onSuccess: (answer, v) => {
      onRestored(answer);
      toast.success(contentMessages.restored(v.version));
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Card>
      <CardBody className="flex flex-col gap-3">
        <h2 className="flex items-center gap-2 font-display text-lg font-bold uppercase tracking-wide text-khaki-50">
          <History aria-hidden="true" className="size-5 text-brass-400" /> Version history
        </h2>
        {versions.isPending ? <Skeleton className="h-16 w-full" /> : null}
        {versions.isError ? <Alert tone="error">{versions.error.message}</Alert> : null}
        {versions.data && versions.data.length === 0 ? (
          <p className="text-sm text-khaki-300">No saved versions yet: the site shows the defaults.</p>
        ) : null}
        {versions.data && versions.data.length > 0 ? (
          <ul className="divide-y divide-olive-700" data-testid="content-versions">
            {versions.data.map((v, i) => (
              <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="text-khaki-100">
                  <span className="font-semibold text-khaki-50">Version {v.version}</span> ·{' '}
                  {v.action === 'restore' ? `restored version ${v.restoredFrom}` : v.action} by{' '}
                  {v.savedBy.replace(/^admin:/, '')} · {new Date(v.savedAt).toLocaleString()}
                  {i === 0 ? <Badge className="ml-2">current</Badge> : null}
                </span>
                {i > 0 ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={disabled || restore.isPending}
                    onClick={() => restore.mutate(v)}
                  >
                    <RotateCcw aria-hidden="true" className="size-4" /> Restore
                    <span className="sr-only"> version {v.version}</span>
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </CardBody>
    </Card>
  );
}

export function ContentView() {
  const client = useQueryClient();
  const content = useQuery({ queryKey: contentKeys.current, queryFn: ({ signal }) => fetchContent(signal) });
  const [open, setOpen] = useState<Record<string, boolean>>({ homepage: true });
  const [confirmReset, setConfirmReset] = useState(false);
  const form = useForm<ContentForm>({ resolver: contentResolver, mode: 'onSubmit' });
  const {
    register,
    reset,
    handleSubmit,
    formState: { isDirty, errors },
  } = form;

  // The form starts from (and after each answer, is replaced by) the server's content.
  const show = (answer: ContentResponse) => {
    client.setQueryData(contentKeys.current, answer);
    reset(toForm(answer.content));
    void client.invalidateQueries({ queryKey: contentKeys.versions });
  };
  useEffect(() => {
    if (content.data && !form.formState.isDirty) reset(toForm(content.data.content));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [content.data]);

  // A warning before leaving the page with unsaved changes.
  useEffect(() => {
    if (!isDirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);

  const save = useMutation({
    mutationFn: (values: ContentForm) => saveContent(fromForm(values)),
    onSuccess: (answer) => {
      show(answer);
      toast.success(contentMessages.saved);
    },
    onError: (error) => toast.error(error.message || contentMessages.saveFailed),
  });
  const resetToDefaults = useMutation({
    mutationFn: resetContent,
    onSuccess: (answer) => {
      setConfirmReset(false);
      show(answer);
      toast.success(contentMessages.reset);
    },
    onError: (error) => toast.error(error.message || contentMessages.resetFailed),
  });

  // Before the early returns: hooks run in the same order on every render.
  const prices = useWatch({ control: form.control, name: 'products' });

  if (content.isError) {
    return (
      <ErrorState
        title={contentMessages.loadErrorTitle}
        message={content.error.message}
        onRetry={() => void content.refetch()}
        retrying={content.isFetching}
      />
    );
  }
  if (content.isPending || !form.formState.defaultValues) {
    return (
      <div className="flex flex-col gap-4" aria-busy="true" aria-label="Loading content">
        <Skeleton className="h-10 w-64" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }

  const toggle = (id: string) => setOpen((o) => ({ ...o, [id]: !o[id] }));
  const busy = save.isPending || resetToDefaults.isPending;

  return (
    <form
      className="flex flex-col gap-5"
      noValidate
      onSubmit={handleSubmit((values) => save.mutate(values))}
      data-testid="content-view"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Content Management</h1>
          <p className="text-sm text-khaki-300">
            What the public site says and offers.{' '}
            {content.data.version > 0 && content.data.updatedBy
              ? `Version ${content.data.version}, saved by ${content.data.updatedBy.replace(/^admin:/, '')}.`
              : 'The site shows the defaults.'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {isDirty ? (
            <Badge tone="caution" data-testid="unsaved-changes">
              Unsaved changes
            </Badge>
          ) : null}
          <Button type="button" variant="secondary" disabled={busy} onClick={() => setConfirmReset(true)}>
            <RotateCcw aria-hidden="true" className="size-4" /> Reset to Defaults
          </Button>
          <Button type="submit" disabled={!isDirty || busy} loading={save.isPending} loadingText="Saving...">
            <Save aria-hidden="true" className="size-4" /> Save Changes
          </Button>
        </div>
      </div>

      <Section id="homepage" title="Homepage" open={!!open.homepage} onToggle={() => toggle('homepage')}>
        <Field label="Hero title" error={msg(errors.homepage?.heroTitle)} className="md:col-span-2">
          <Input {...register('homepage.heroTitle')} />
        </Field>
        <Field label="Hero subtitle" error={msg(errors.homepage?.heroSubtitle)} className="md:col-span-2">
          <Textarea rows={2} {...register('homepage.heroSubtitle')} />
        </Field>
        <Field label="Company name" error={msg(errors.homepage?.companyName)}>
          <Input {...register('homepage.companyName')} />
        </Field>
        <Field label="Tagline" error={msg(errors.homepage?.tagline)}>
          <Input {...register('homepage.tagline')} />
        </Field>
        <Field label="Description" error={msg(errors.homepage?.description)} className="md:col-span-2">
          <Textarea rows={3} {...register('homepage.description')} />
        </Field>
      </Section>

      <Section id="products" title="Products" open={!!open.products} onToggle={() => toggle('products')}>
        <p className="text-sm text-khaki-300 md:col-span-2">
          Prices now:{' '}
          {itemTypes.map((t) => `${t} ${formatMoney(parseBasePrice(prices?.[t]?.basePrice ?? ''))}`).join(', ')}. A new
          price applies to new quote requests only.
        </p>
        <ProductFields register={register} errors={errors} />
      </Section>

      <Section id="seo" title="SEO" open={!!open.seo} onToggle={() => toggle('seo')}>
        <Field label="Page title" error={msg(errors.seo?.title)}>
          <Input {...register('seo.title')} />
        </Field>
        <Field label="Open Graph title" error={msg(errors.seo?.ogTitle)}>
          <Input {...register('seo.ogTitle')} />
        </Field>
        <Field label="Meta description" error={msg(errors.seo?.description)}>
          <Textarea rows={2} {...register('seo.description')} />
        </Field>
        <Field label="Open Graph description" error={msg(errors.seo?.ogDescription)}>
          <Textarea rows={2} {...register('seo.ogDescription')} />
        </Field>
        <Field
          label="Open Graph image"
          hint="An http(s) URL or a path such as /og.png"
          error={msg(errors.seo?.ogImage)}
        >
          <Input {...register('seo.ogImage')} />
        </Field>
        <Field label="Keywords" hint="One per line" error={msg(errors.seo?.keywords)}>
          <Textarea rows={3} {...register('seo.keywords')} />
        </Field>
      </Section>

      <Section id="contact" title="Contact" open={!!open.contact} onToggle={() => toggle('contact')}>
        <Field label="Email" error={msg(errors.contact?.email)}>
          <Input type="email" {...register('contact.email')} />
        </Field>
        <Field label="Phone" error={msg(errors.contact?.phone)}>
          <Input type="tel" {...register('contact.phone')} />
        </Field>
        <Field label="Address" error={msg(errors.contact?.address)}>
          <Textarea rows={2} {...register('contact.address')} />
        </Field>
        <Field label="Business hours" error={msg(errors.contact?.businessHours)}>
          <Input {...register('contact.businessHours')} />
        </Field>
      </Section>

      <Section id="features" title="Features" open={!!open.features} onToggle={() => toggle('features')}>
        {switches.map(([key, label, hint]) => (
          <Checkbox key={key} label={label} hint={hint} {...register(`features.${key}`)} />
        ))}
      </Section>

      <VersionHistory onRestored={show} disabled={busy} />

      <Modal
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Reset to Defaults?"
        description="Every section goes back to the shop's default texts, prices and switches. The current content stays in the version history."
        size="sm"
        footer={
          <>
            <Button type="button" variant="secondary" onClick={() => setConfirmReset(false)}>
              Cancel
            </Button>
            <Button
              type="button"
              variant="danger"
              loading={resetToDefaults.isPending}
              loadingText="Resetting..."
              onClick={() => resetToDefaults.mutate()}
            >
              Reset to Defaults
            </Button>
          </>
        }
      />
    </form>
  );
}
