// The screens of the guided flow (steps 0 to 7, storefront §2-§5). Each draws one part of the request;
// OrderFlow around them holds Back/Continue and the submission.
import {
  catalog,
  countries,
  countryLabels,
  customerCategory,
  formatMoney,
  itemTypes,
  limits,
  normalizePostalCode,
  orderStatusLabels,
  priceListOf,
  regionLabels,
  regionsByCountry,
  shirtSizes,
  sizeLabel,
  type Country,
  type DesignMethod,
  type ItemType,
} from '@shop/contracts';
import { CircleCheck, FileText, PenLine, Sparkles, Users } from 'lucide-react';
import { useEffect, useState, type FocusEvent, type ReactNode } from 'react';
import { Badge, Button, Checkbox, ChoiceGroup, ChoiceTile, Field, Input, Select, Textarea, cn } from '@shop/ui';
import { Link } from '@shop/ui/router';
import { ItemArt } from '../components/ItemArt.js';
import { useSiteContent } from '../content.js';
import {
  colorChoices,
  colorSwatches,
  edgeChoices,
  featureChoices,
  finishChoices,
  finishHeading,
  countWhileTyping,
  humanize,
  orderEstimate,
  orderQuantity,
  parseQuantity,
  parseShirtCount,
  quantityLabel,
  quantityRange,
  shapeChoices,
  shippingProblems,
  shirtChest,
  shirtCountRange,
  sizeChoices,
  type OrderForm,
} from './model.js';
import { UploadArea } from './UploadArea.js';

export interface StepProps {
  form: OrderForm;
  update: (patch: Partial<OrderForm>) => void;
}

export function StepHeading({ title, text }: { title: string; text?: ReactNode }) {
  return (
    <div className="mb-5">
      <h2
        className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50"
        tabIndex={-1}
        data-step-heading
      >
        {title}
      </h2>
      {text ? <p className="mt-1 text-khaki-200">{text}</p> : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// 0: item
// ---------------------------------------------------------------------------------------------
export function StepItem({ form, update }: StepProps) {
  // Titles and "From $" follow the site content (the catalog's until it has loaded).
  const products = useSiteContent().data?.products;
  return (
    <>
      <StepHeading title="Choose your item" text="What would you like us to make?" />
      <ChoiceGroup label="Item" columns={3} required>
        {itemTypes.map((type) => (
          <ChoiceTile
            key={type}
            selected={form.itemType === type}
            onClick={() => update(type === form.itemType ? {} : { itemType: type, size: '', finish: '' })}
            media={<ItemArt item={type} className="size-12" />}
            title={products?.[type].title ?? catalog[type].cardTitle}
            hint={`From ${formatMoney(products?.[type].basePrice ?? catalog[type].basePrice)}`}
            className="col-span-2 sm:col-span-1"
          />
        ))}
      </ChoiceGroup>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 1: design method
// ---------------------------------------------------------------------------------------------
const methods: Array<{ value: DesignMethod; title: string; hint: string; Icon: typeof FileText }> = [
  { value: 'upload', title: 'Upload Your Design', hint: 'Send us your artwork or logo files', Icon: FileText },
  { value: 'describe', title: 'Describe Your Design', hint: 'Tell us what you want in words', Icon: PenLine },
  { value: 'team', title: 'Let Our Team Design', hint: 'Our designers create it from your ideas', Icon: Users },
];

/**
 * The methods the site content's switches allow: upload needs fileUploadEnabled, and with
 * manualDesignEnabled off only the AI tool's design remains (offered when the request came from it).
 */
export function offeredMethods(
  designMethod: DesignMethod | null,
  features: { manualDesignEnabled: boolean; fileUploadEnabled: boolean } | undefined,
) {
  const manual = features?.manualDesignEnabled ?? true;
  const upload = features?.fileUploadEnabled ?? true;
  const shown = manual ? methods.filter((m) => m.value !== 'upload' || upload) : [];
  return designMethod === 'ai' ? [...shown, aiMethod] : shown;
}

const aiMethod = {
  value: 'ai' as const,
  title: 'AI Design',
  hint: 'The design you generated with our AI tool',
  Icon: Sparkles,
};

export function StepMethod({ form, update }: StepProps) {
  const features = useSiteContent().data?.features;
  const shown = offeredMethods(form.designMethod, features);
  // A method switched off while it was chosen is no longer a choice.
  const chosenGone = form.designMethod !== null && !shown.some((m) => m.value === form.designMethod);
  useEffect(() => {
    if (chosenGone) update({ designMethod: null, uploadedFiles: [] });
  }, [chosenGone, update]);
  return (
    <>
      <StepHeading title="How would you like to design it?" text="Choose how you will give us your design." />
      {shown.length ? (
        <ChoiceGroup label="Design method" columns={3} required>
          {shown.map(({ value, title, hint, Icon }) => (
            <ChoiceTile
              key={value}
              selected={form.designMethod === value}
              onClick={() => update({ designMethod: value })}
              media={<Icon aria-hidden="true" className="size-7 text-brass-400" />}
              title={title}
              hint={hint}
              className="col-span-2 sm:col-span-1"
            />
          ))}
        </ChoiceGroup>
      ) : features?.aiGenerationEnabled ? (
        <p className="text-khaki-200" data-testid="method-ai-only">
          Designs start in our AI tool right now.{' '}
          {/* The home page opens the AI tool when it is reached with this state. */}
          <Link to="/" state={{ start: 'ai' }} className="font-semibold text-brass-300 underline">
            Start AI Design
          </Link>
        </p>
      ) : (
        <p className="text-khaki-200" data-testid="method-none">
          No design method is open right now. Please{' '}
          <Link to="/support" className="font-semibold text-brass-300 underline">
            contact us
          </Link>{' '}
          about your request.
        </p>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 2: design content
// ---------------------------------------------------------------------------------------------
export function StepContent({ form, update }: StepProps) {
  const upload = form.designMethod === 'upload';
  const length = form.description.length;
  const short = !upload && form.description.trim().length < limits.descriptionMin;
  const label = upload
    ? 'Notes for our team (optional)'
    : form.designMethod === 'team'
      ? 'Tell our design team what you need'
      : 'Describe your design';
  return (
    <>
      <StepHeading
        title={upload ? 'Upload your design' : 'Describe your design'}
        text={
          upload
            ? 'Add at least one file of your artwork.'
            : 'Colors, text, symbols, unit names: the more detail, the better the quote.'
        }
      />
      <div className="flex flex-col gap-5">
        {upload ? (
          <UploadArea files={form.uploadedFiles} onChange={(files) => update({ uploadedFiles: files })} />
        ) : null}
        <Field
          label={label}
          required={!upload}
          hint={
            <span className="flex justify-between gap-2">
              <span>
                {upload ? 'Anything we should know about the files.' : `At least ${limits.descriptionMin} characters.`}
              </span>
              <span aria-live="polite">
                {length}/{limits.descriptionMax}
              </span>
            </span>
          }
        >
          <Textarea
            name="description"
            value={form.description}
            maxLength={limits.descriptionMax}
            rows={6}
            placeholder="e.g. Round coin with our battalion crest on the front, motto 'Always Ready' around the edge"
            onChange={(e) => update({ description: e.target.value.slice(0, limits.descriptionMax) })}
            aria-invalid={short && length > 0 ? true : undefined}
          />
        </Field>
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 3: specifications
// ---------------------------------------------------------------------------------------------
function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

function Swatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      className="block size-5 rounded-full border border-khaki-400/60"
      style={{ background: colorSwatches[color] ?? '#777' }}
    />
  );
}

/**
 * A whole-number input that edits like a normal number field: what is typed stays (empty included)
 * and the value follows only while the text is an allowed number; leaving the field applies the
 * spec's rule (`onLeave`) and shows its result.
 */
function CountInput({
  value,
  onChange,
  range,
  onLeave,
  ...rest
}: {
  value: number;
  onChange: (n: number) => void;
  range: { min: number; max: number };
  onLeave: (draft: string) => number;
  name: string;
  'aria-label'?: string;
  onFocus?: (e: FocusEvent<HTMLInputElement>) => void;
}) {
  const [draft, setDraft] = useState(String(value));
  // A change from elsewhere (Finalize Order, Place Another Order) replaces the text; the value the
  // text already means does not (or "0" typed on the way to "05" would jump).
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft((d) => (countWhileTyping(d, range) === value ? d : String(value)));
  }
  return (
    <Input
      {...rest}
      type="number"
      inputMode="numeric"
      min={range.min}
      max={range.max}
      step={1}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        const n = countWhileTyping(e.target.value, range);
        if (n !== null && n !== value) onChange(n);
      }}
      onBlur={() => {
        const n = onLeave(draft);
        setDraft(String(n));
        if (n !== value) onChange(n);
      }}
    />
  );
}

function QuantityInput({ value, onChange }: { value: number; onChange: (n: number) => void }) {
  return (
    <Field
      label="Quantity"
      required
      hint={`${limits.quantity.min} to ${limits.quantity.max.toLocaleString('en-US')} pieces`}
    >
      <CountInput name="quantity" value={value} onChange={onChange} range={quantityRange} onLeave={parseQuantity} />
    </Field>
  );
}

function ShirtSizes({ form, update }: StepProps) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-semibold text-khaki-100">
        Sizes and quantities
        <span aria-hidden="true" className="ml-0.5 text-brass-400">
          *
        </span>
      </legend>
      <p className="-mt-1 text-xs text-khaki-300">How many shirts in each size? At least one in total.</p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {shirtSizes.map((size) => (
          <label key={size} className="flex flex-col gap-1 rounded-md border border-olive-600 bg-ink-900 p-3">
            <span className="font-semibold text-khaki-50">{size}</span>
            <span className="text-xs text-khaki-300">Chest {shirtChest[size]}</span>
            <CountInput
              name={`size-${size}`}
              aria-label={`${size} quantity`}
              value={form.sizeBreakdown[size]}
              range={shirtCountRange}
              onLeave={parseShirtCount}
              onChange={(n) => update({ sizeBreakdown: { ...form.sizeBreakdown, [size]: n } })}
              onFocus={(e) => e.currentTarget.select()}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function EstimateBox({ form }: { form: OrderForm }) {
  const quantity = orderQuantity(form);
  // The site content's price list, the same the orders service recomputes a new quote request with.
  const content = useSiteContent().data;
  const prices = content ? priceListOf(content) : undefined;
  return (
    <div className="rounded-lg border border-brass-400/50 bg-brass-400/10 p-4" data-testid="estimate">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold uppercase tracking-wide text-khaki-200">Estimated total</span>
        <span className="text-2xl font-bold text-brass-300" aria-live="polite">
          {formatMoney(orderEstimate(form, prices))}
        </span>
      </div>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2 text-sm text-khaki-200">
        <span>
          {quantity.toLocaleString('en-US')} {quantity === 1 ? 'piece' : 'pieces'}
        </span>
        <Badge tone={quantity >= 50 ? 'ok' : 'neutral'}>{quantityLabel(quantity)}</Badge>
      </div>
      <p className="mt-2 text-xs text-khaki-300">
        10% off from 50 pieces, 20% off from 100. Your quote confirms the final price within 24 hours.
      </p>
    </div>
  );
}

export function StepSpecs({ form, update }: StepProps) {
  const type = form.itemType as ItemType;
  return (
    <>
      <StepHeading title="Specifications" text={`Options for your ${catalog[type].cardTitle.toLowerCase()}.`} />
      <div className="flex flex-col gap-6">
        {type === 'shirt' ? (
          <ShirtSizes form={form} update={update} />
        ) : (
          <ChoiceGroup label="Size" columns={type === 'coin' ? 3 : 4} required>
            {sizeChoices(type).map((c) => (
              <ChoiceTile
                key={c.value}
                selected={form.size === c.value}
                onClick={() => update({ size: c.value })}
                title={c.label}
                hint={c.hint}
              />
            ))}
          </ChoiceGroup>
        )}
        {type === 'coin' ? (
          <ChoiceGroup label="Shape" columns={4}>
            {shapeChoices.map((c) => (
              <ChoiceTile
                key={c.value}
                selected={form.shape === c.value}
                onClick={() => update({ shape: form.shape === c.value ? '' : c.value })}
                title={c.label}
              />
            ))}
          </ChoiceGroup>
        ) : null}
        <ChoiceGroup label="Colors" hint="Choose one or more." columns={4} required>
          {colorChoices.map((c) => (
            <ChoiceTile
              key={c.value}
              selected={form.colors.includes(c.value)}
              onClick={() => update({ colors: toggle(form.colors, c.value) })}
              media={<Swatch color={c.value} />}
              title={c.label}
            />
          ))}
        </ChoiceGroup>
        <ChoiceGroup label={finishHeading(type)} columns={type === 'coin' ? 3 : 4} required>
          {finishChoices(type).map((c) => (
            <ChoiceTile
              key={c.value}
              selected={form.finish === c.value}
              onClick={() => update({ finish: c.value })}
              title={c.label}
            />
          ))}
        </ChoiceGroup>
        {type === 'coin' ? (
          <>
            <ChoiceGroup label="Edge" columns={3}>
              {edgeChoices.map((c) => (
                <ChoiceTile
                  key={c.value}
                  selected={form.edge === c.value}
                  onClick={() => update({ edge: form.edge === c.value ? '' : c.value })}
                  title={c.label}
                />
              ))}
            </ChoiceGroup>
            <ChoiceGroup label="Special features" hint="Optional, choose any." columns={4}>
              {featureChoices.map((c) => (
                <ChoiceTile
                  key={c.value}
                  selected={form.features.includes(c.value)}
                  onClick={() => update({ features: toggle(form.features, c.value) })}
                  title={c.label}
                />
              ))}
            </ChoiceGroup>
          </>
        ) : null}
        {type === 'shirt' ? null : (
          <QuantityInput value={form.quantity} onChange={(quantity) => update({ quantity })} />
        )}
        <EstimateBox form={form} />
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 4: shipping and customer category
// ---------------------------------------------------------------------------------------------
export function StepShipping({ form, update }: StepProps) {
  const a = form.shippingAddress;
  const set = (patch: Partial<typeof a>) => update({ shippingAddress: { ...a, ...patch } });
  // A problem shows once the customer has left the field (not while the first characters go in).
  const [touched, setTouched] = useState<{ state?: boolean; postalCode?: boolean }>({});
  const problems = shippingProblems(a);
  const regionLabel = regionLabels[a.country];
  return (
    <>
      <StepHeading title="Shipping address" text="Where should we send your order?" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Address line 1" required className="sm:col-span-2">
          <Input
            name="line1"
            autoComplete="address-line1"
            value={a.line1}
            onChange={(e) => set({ line1: e.target.value })}
          />
        </Field>
        <Field label="Address line 2" hint="Apartment, suite, unit (optional)" className="sm:col-span-2">
          <Input
            name="line2"
            autoComplete="address-line2"
            value={a.line2}
            onChange={(e) => set({ line2: e.target.value })}
          />
        </Field>
        <Field label="City" required>
          <Input
            name="city"
            autoComplete="address-level2"
            value={a.city}
            onChange={(e) => set({ city: e.target.value })}
          />
        </Field>
        <Field label="Country" required>
          <Select
            name="country"
            autoComplete="country"
            value={a.country}
            onChange={(e) => {
              const country = e.target.value as Country;
              // A state of one country is no province of the other: choose again.
              const keep = regionsByCountry[country].some((r) => r.code === a.state);
              set({ country, state: keep ? a.state : '' });
            }}
          >
            {countries.map((c) => (
              <option key={c} value={c}>
                {countryLabels[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={regionLabel} required error={touched.state ? problems.state : undefined}>
          <Select
            name="state"
            autoComplete="address-level1"
            value={a.state}
            onChange={(e) => set({ state: e.target.value })}
            onBlur={() => setTouched((t) => ({ ...t, state: true }))}
          >
            <option value="">{a.country === 'CA' ? 'Select a province or territory' : 'Select a state'}</option>
            {regionsByCountry[a.country].map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Postal code"
          required
          hint={a.country === 'CA' ? 'Canadian postal code, e.g. K1A 0B1' : 'ZIP code, e.g. 12345 or 12345-6789'}
          error={touched.postalCode ? problems.postalCode : undefined}
        >
          <Input
            name="postalCode"
            autoComplete="postal-code"
            maxLength={limits.postalCodeMax}
            value={a.postalCode}
            onChange={(e) => set({ postalCode: e.target.value.slice(0, limits.postalCodeMax) })}
            onBlur={() => {
              setTouched((t) => ({ ...t, postalCode: true }));
              const normalized = normalizePostalCode(a.country, a.postalCode);
              if (normalized !== a.postalCode) set({ postalCode: normalized });
            }}
          />
        </Field>
      </div>
      <div className="mt-6 flex flex-col gap-3">
        <ChoiceGroup label="Customer type" columns={3}>
          {customerCategory.values.map((c) => (
            <ChoiceTile
              key={c}
              selected={form.customerCategory === c}
              onClick={() => update({ customerCategory: c })}
              title={customerCategory.labels[c]}
              className="col-span-2 sm:col-span-1"
            />
          ))}
        </ChoiceGroup>
        {form.customerCategory === 'military' ? (
          <div
            role="note"
            aria-label="Military orders"
            className="rounded-md border border-olive-500 bg-olive-800 p-4 text-sm text-khaki-100"
          >
            <p className="font-semibold text-khaki-50">Military orders</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              <li>Tax exemptions may apply in certain states.</li>
              <li>APO/FPO addresses are supported.</li>
              <li>Contact support for tax exemption certificates.</li>
            </ul>
          </div>
        ) : null}
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 5: contact
// ---------------------------------------------------------------------------------------------
export function StepContact({ form, update }: StepProps) {
  const hasPhone = form.phone.trim() !== '';
  return (
    <>
      <StepHeading title="Contact information" text="We send your quote to this email address." />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" required>
          <Input
            name="firstName"
            autoComplete="given-name"
            value={form.firstName}
            onChange={(e) => update({ firstName: e.target.value })}
          />
        </Field>
        <Field label="Last name" required>
          <Input
            name="lastName"
            autoComplete="family-name"
            value={form.lastName}
            onChange={(e) => update({ lastName: e.target.value })}
          />
        </Field>
        <Field label="Email address" required>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            onChange={(e) => update({ email: e.target.value })}
          />
        </Field>
        <Field label="Phone number" hint="Optional">
          <Input
            name="phone"
            type="tel"
            autoComplete="tel"
            value={form.phone}
            onChange={(e) =>
              update({ phone: e.target.value, ...(e.target.value.trim() ? {} : { subscribeSMS: false }) })
            }
          />
        </Field>
      </div>
      <div className="mt-5 flex flex-col gap-3">
        <Checkbox
          label="Email me offers and news"
          checked={form.subscribeEmail}
          onChange={(e) => update({ subscribeEmail: e.target.checked })}
        />
        {hasPhone ? (
          <Checkbox
            label="Text me order updates by SMS"
            checked={form.subscribeSMS}
            onChange={(e) => update({ subscribeSMS: e.target.checked })}
          />
        ) : null}
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 6: review
// ---------------------------------------------------------------------------------------------
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-olive-700 py-2 sm:flex-row sm:gap-4">
      <dt className="w-40 shrink-0 text-sm text-khaki-300">{label}</dt>
      <dd className="min-w-0 break-words text-khaki-50">{children}</dd>
    </div>
  );
}

const methodNames: Record<DesignMethod, string> = {
  upload: 'Uploaded artwork',
  describe: 'Described design',
  team: 'Designed by our team',
  ai: 'AI generated design',
};

export function StepReview({ form }: { form: OrderForm }) {
  const type = form.itemType as ItemType;
  const a = form.shippingAddress;
  const breakdown = Object.entries(form.sizeBreakdown).filter(([, n]) => n > 0);
  return (
    <>
      <StepHeading title="Review your request" text="Check the details, then request your quote." />
      <dl className="flex flex-col" aria-label="Order summary">
        <Row label="Item">{catalog[type].title}</Row>
        <Row label="Design">{form.designMethod ? methodNames[form.designMethod] : ''}</Row>
        {form.uploadedFiles.length ? <Row label="Files">{form.uploadedFiles.map((f) => f.name).join(', ')}</Row> : null}
        {form.description.trim() ? <Row label="Description">{form.description.trim()}</Row> : null}
        {type === 'shirt' ? (
          <Row label="Sizes">{breakdown.map(([s, n]) => `${s}: ${n}`).join(', ')}</Row>
        ) : (
          <Row label="Size">{sizeLabel(type, form.size)}</Row>
        )}
        {form.shape ? <Row label="Shape">{form.shape}</Row> : null}
        <Row label="Colors">{form.colors.join(', ')}</Row>
        <Row label={finishHeading(type)}>{humanize(form.finish)}</Row>
        {form.edge ? <Row label="Edge">{humanize(form.edge)}</Row> : null}
        {form.features.length ? <Row label="Features">{form.features.join(', ')}</Row> : null}
        <Row label="Quantity">{orderQuantity(form).toLocaleString('en-US')}</Row>
        <Row label="Ship to">
          {[a.line1, a.line2, `${a.city}, ${a.state} ${a.postalCode}`, countryLabels[a.country]]
            .filter((s) => s.trim())
            .join(', ')}
        </Row>
        <Row label="Customer type">
          {customerCategory.labels[form.customerCategory]}
          {form.customerCategory === 'military' ? ' (tax exemption requested)' : ''}
        </Row>
        <Row label="Contact">
          {`${form.firstName} ${form.lastName}`.trim()}, {form.email}
          {form.phone.trim() ? `, ${form.phone.trim()}` : ''}
        </Row>
      </dl>
      <div className="mt-5">
        <EstimateBox form={form} />
      </div>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// 7: confirmation
// ---------------------------------------------------------------------------------------------
export function StepDone({
  orderNumber,
  email,
  onAnother,
  onMenu,
}: {
  orderNumber: string;
  email: string;
  onAnother: () => void;
  onMenu: () => void;
}) {
  return (
    <div className="flex flex-col items-center gap-4 py-4 text-center" data-testid="order-confirmation">
      <CircleCheck aria-hidden="true" className="size-14 text-ok-400" />
      <h2
        className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50"
        tabIndex={-1}
        data-step-heading
      >
        Quote Request Received
      </h2>
      <p className="text-khaki-200">Your order number</p>
      <p className="font-mono text-3xl font-bold text-brass-300" data-testid="order-number">
        {orderNumber}
      </p>
      <Badge tone="caution">{orderStatusLabels.pending_quote}</Badge>
      <p className="max-w-md text-khaki-200">
        Our team reviews your request and emails a quote with a payment link to{' '}
        <span className="font-semibold text-khaki-50">{email}</span> within 24 hours. Keep your order number to track
        it.
      </p>
      <div className={cn('mt-2 flex w-full flex-col gap-3 sm:w-auto sm:flex-row')}>
        <Button onClick={onAnother}>Place Another Order</Button>
        <Button variant="secondary" onClick={onMenu}>
          Back to Main Menu
        </Button>
      </div>
    </div>
  );
}
