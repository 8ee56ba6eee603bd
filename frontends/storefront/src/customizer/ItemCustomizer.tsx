// The item customizer modal (storefront §2 "Item customizer modal"): Customize {item}, steps Design,
// Text, Specifications, Review. The parent sends the order (it owns the submitting flag); this modal
// collects the draft and checks the name and email it needs.
import { Check, ImageUp, Minus, Plus, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { customizerOptions, formatMoney, limits } from '@shop/contracts';
import { Alert, Badge, Button, Field, Input, Modal, Textarea, cn } from '@shop/ui';
import { messages } from '../messages.js';
import {
  changeQuantity,
  contactMissing,
  customizerSteps,
  customizerSwatches,
  draftPrice,
  initialDraft,
  type CustomizerDraft,
  type CustomizerItem,
} from './model.js';

export interface ItemCustomizerProps {
  open: boolean;
  onClose: () => void;
  item: CustomizerItem | null | undefined;
  aiDesign?: { prompt: string; imageUrl?: string } | null;
  onComplete: (draft: CustomizerDraft) => void;
  submitting: boolean;
  /** The parent's submit failure, shown on the Review step. */
  error?: string | null;
}

export function ItemCustomizer(props: ItemCustomizerProps) {
  // Renders nothing when closed or without an item id (§2).
  if (!props.open || !props.item || !props.item.id) return null;
  return <CustomizerBody {...props} item={props.item} />;
}

function Stepper({ step }: { step: number }) {
  return (
    <ol className="mb-5 grid grid-cols-4 gap-2 text-center text-xs" aria-label="Customizer steps">
      {customizerSteps.map((name, i) => (
        <li key={name} aria-current={i === step ? 'step' : undefined} className="flex flex-col items-center gap-1">
          <span
            className={cn(
              'flex size-7 items-center justify-center rounded-full border text-sm font-bold',
              i < step
                ? 'border-ok-400 bg-ok-600/40 text-khaki-50'
                : i === step
                  ? 'border-brass-400 bg-brass-400 text-ink-950'
                  : 'border-olive-500 text-khaki-300',
            )}
          >
            {i < step ? <Check aria-hidden="true" className="size-4" /> : i + 1}
          </span>
          <span className={i === step ? 'font-semibold text-brass-300' : 'text-khaki-300'}>{name}</span>
        </li>
      ))}
    </ol>
  );
}

function ImagePicker({ file, onChange }: { file: File | null; onChange: (file: File | null) => void }) {
  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    accept: { 'image/*': [] },
    multiple: false,
    noClick: true,
    onDrop: (accepted) => {
      if (accepted[0]) onChange(accepted[0]);
    },
  });
  return (
    <div
      {...getRootProps({
        className: cn(
          'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-5 text-center',
          isDragActive ? 'border-brass-400 bg-brass-400/10' : 'border-olive-500 bg-ink-900',
        ),
      })}
    >
      <input {...getInputProps()} aria-label="Upload your design image" data-testid="customizer-image-input" />
      <ImageUp aria-hidden="true" className="size-8 text-brass-400" />
      <p className="text-sm text-khaki-100">Drag an image here, or</p>
      <Button variant="secondary" size="sm" onClick={open}>
        Choose File
      </Button>
      {file ? (
        <p className="text-sm font-semibold text-khaki-50">{file.name}</p>
      ) : (
        <p className="text-xs text-khaki-300">Images only</p>
      )}
    </div>
  );
}

function CustomizerBody({
  onClose,
  item,
  aiDesign,
  onComplete,
  submitting,
  error,
}: ItemCustomizerProps & { item: CustomizerItem }) {
  const [step, setStep] = useState(0);
  const [draft, setDraft] = useState<CustomizerDraft>(() => initialDraft(item.id));
  const [contactError, setContactError] = useState<string | null>(null);
  const options = customizerOptions[item.id];
  const set = (patch: Partial<CustomizerDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // Another item starts over (reset while rendering, not in an effect afterwards).
  const [itemId, setItemId] = useState(item.id);
  if (item.id !== itemId) {
    setItemId(item.id);
    setDraft(initialDraft(item.id));
    setStep(0);
  }

  function submit() {
    if (submitting) return;
    if (contactMissing(draft)) {
      setContactError(messages.customizerMissingContact);
      return;
    }
    setContactError(null);
    onComplete(draft);
  }

  const last = step === customizerSteps.length - 1;
  const footer = (
    <div className="flex w-full items-center justify-between gap-3">
      <Button variant="secondary" onClick={() => (step === 0 ? onClose() : setStep(step - 1))} disabled={submitting}>
        {step === 0 ? 'Cancel' : 'Back'}
      </Button>
      {last ? (
        <Button onClick={submit} loading={submitting} loadingText="Submitting...">
          Place Order
        </Button>
      ) : (
        <Button onClick={() => setStep(step + 1)}>Next</Button>
      )}
    </div>
  );

  return (
    <Modal
      open
      onOpenChange={(o) => (!o && !submitting ? onClose() : undefined)}
      title={`Customize ${item.title}`}
      size="lg"
      footer={footer}
    >
      <Stepper step={step} />

      {step === 0 ? (
        <div className="flex flex-col gap-5">
          {aiDesign ? (
            <div className="flex flex-col gap-3 rounded-lg border border-olive-600 bg-ink-900 p-4 sm:flex-row">
              {aiDesign.imageUrl ? (
                <img
                  src={aiDesign.imageUrl}
                  alt={`AI design: ${aiDesign.prompt}`}
                  className="size-32 shrink-0 rounded-md bg-olive-800 object-contain"
                />
              ) : null}
              <div className="flex flex-col gap-2">
                <div className="flex flex-wrap gap-2">
                  <Badge tone="brass">
                    <Sparkles aria-hidden="true" className="size-3" /> AI Generated
                  </Badge>
                  <Badge tone="ok">Ready to Use</Badge>
                </div>
                <p className="text-sm text-khaki-100">{aiDesign.prompt}</p>
                <p className="text-xs text-khaki-300">
                  Your AI design is ready. Continue to add text and choose the specifications.
                </p>
              </div>
            </div>
          ) : (
            <ImagePicker file={draft.uploadedImage} onChange={(uploadedImage) => set({ uploadedImage })} />
          )}
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-khaki-100">Choose Your Color</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {options.colors.map((color) => {
                const selected = draft.color === color;
                return (
                  <button
                    key={color}
                    type="button"
                    aria-pressed={selected}
                    onClick={() => set({ color })}
                    className={cn(
                      'flex flex-col items-center gap-2 rounded-md border p-3 text-sm focus-visible:outline-2 focus-visible:outline-brass-300',
                      selected
                        ? 'border-brass-400 bg-brass-400/15 text-khaki-50'
                        : 'border-olive-500 text-khaki-100 hover:bg-olive-800',
                    )}
                  >
                    <span
                      className="relative flex size-10 items-center justify-center rounded-full border border-khaki-400/60"
                      style={{ background: customizerSwatches[color] ?? '#777' }}
                      aria-hidden="true"
                    >
                      {selected ? <Check className="size-5 rounded-full bg-ink-950/70 p-0.5 text-brass-300" /> : null}
                    </span>
                    {color}
                  </button>
                );
              })}
            </div>
          </fieldset>
        </div>
      ) : null}

      {step === 1 ? (
        <div className="flex flex-col gap-4">
          <Field label="Text on your item" hint={`${draft.text.length}/${limits.customizerTextMax} characters`}>
            <Textarea
              value={draft.text}
              maxLength={limits.customizerTextMax}
              placeholder={`Enter text for your ${item.title}...`}
              onChange={(e) => set({ text: e.target.value.slice(0, limits.customizerTextMax) })}
            />
          </Field>
          <div className="rounded-md border border-olive-600 bg-olive-800 p-4 text-sm">
            <p className="font-semibold text-khaki-50">Text guidelines</p>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-khaki-200">
              <li>Keep text concise and readable.</li>
              <li>Avoid special characters that may not render properly.</li>
              <li>Consider text size relative to the item's dimensions.</li>
              <li>Military mottos and unit designations work best.</li>
            </ul>
          </div>
        </div>
      ) : null}

      {step === 2 ? (
        <div className="flex flex-col gap-5">
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-khaki-100">Choose Your Size</legend>
            <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
              {options.sizes.map((size) => (
                <button
                  key={size}
                  type="button"
                  aria-pressed={draft.size === size}
                  onClick={() => set({ size })}
                  className={cn(
                    'min-h-11 rounded-md border px-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brass-300',
                    draft.size === size
                      ? 'border-brass-400 bg-brass-400/15 text-khaki-50'
                      : 'border-olive-500 text-khaki-100 hover:bg-olive-800',
                  )}
                >
                  {size}
                </button>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-khaki-100">Choose Your Material</legend>
            <div className="grid grid-cols-2 gap-2">
              {options.materials.map((material) => (
                <button
                  key={material}
                  type="button"
                  aria-pressed={draft.material === material}
                  onClick={() => set({ material })}
                  className={cn(
                    'min-h-11 rounded-md border px-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brass-300',
                    draft.material === material
                      ? 'border-brass-400 bg-brass-400/15 text-khaki-50'
                      : 'border-olive-500 text-khaki-100 hover:bg-olive-800',
                  )}
                >
                  {material}
                </button>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col gap-2">
            <label htmlFor="customizer-quantity" className="text-sm font-semibold text-khaki-100">
              Quantity
            </label>
            <div className="flex items-center gap-2">
              <Button
                variant="secondary"
                size="sm"
                aria-label="Decrease quantity"
                onClick={() => set({ quantity: changeQuantity(draft.quantity, -1) })}
                disabled={draft.quantity <= 1}
              >
                <Minus aria-hidden="true" className="size-4" />
              </Button>
              <Input
                id="customizer-quantity"
                type="number"
                inputMode="numeric"
                min={1}
                className="w-24 text-center"
                value={String(draft.quantity)}
                onChange={(e) => {
                  const n = Number.parseInt(e.target.value, 10);
                  set({ quantity: Number.isFinite(n) ? changeQuantity(n, 0) : 1 });
                }}
              />
              <Button
                variant="secondary"
                size="sm"
                aria-label="Increase quantity"
                onClick={() => set({ quantity: changeQuantity(draft.quantity, 1) })}
              >
                <Plus aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </div>
        </div>
      ) : null}

      {step === 3 ? (
        <div className="flex flex-col gap-5">
          <section aria-labelledby="customizer-summary" className="rounded-lg border border-olive-600 bg-ink-900 p-4">
            <h3
              id="customizer-summary"
              className="font-display text-lg font-bold uppercase tracking-wide text-khaki-50"
            >
              Order Summary
            </h3>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm [&_dd]:[overflow-wrap:anywhere]">
              <dt className="text-khaki-300">Item</dt>
              <dd className="text-khaki-50">{item.title}</dd>
              <dt className="text-khaki-300">Design</dt>
              <dd className="text-khaki-50">
                {aiDesign
                  ? 'AI generated design'
                  : draft.uploadedImage
                    ? draft.uploadedImage.name
                    : 'Our team designs it'}
              </dd>
              <dt className="text-khaki-300">Color</dt>
              <dd className="text-khaki-50">{draft.color}</dd>
              {draft.text.trim() ? (
                <>
                  <dt className="text-khaki-300">Text</dt>
                  <dd className="break-words text-khaki-50">{draft.text.trim()}</dd>
                </>
              ) : null}
              <dt className="text-khaki-300">Size</dt>
              <dd className="text-khaki-50">{draft.size}</dd>
              <dt className="text-khaki-300">Material</dt>
              <dd className="text-khaki-50">{draft.material}</dd>
              <dt className="text-khaki-300">Quantity</dt>
              <dd className="text-khaki-50">{draft.quantity}</dd>
            </dl>
            <div className="mt-3 flex items-baseline justify-between border-t border-olive-700 pt-3">
              <span className="font-semibold text-khaki-100">Price</span>
              <span className="text-2xl font-bold text-brass-300" data-testid="customizer-price">
                {formatMoney(draftPrice(item.id, draft, item.basePrice))}
              </span>
            </div>
            <p className="mt-1 text-sm text-khaki-300">Production time: 7-10 business days</p>
          </section>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="First name" required>
              <Input
                autoComplete="given-name"
                value={draft.firstName}
                onChange={(e) => set({ firstName: e.target.value })}
              />
            </Field>
            <Field label="Last name" required>
              <Input
                autoComplete="family-name"
                value={draft.lastName}
                onChange={(e) => set({ lastName: e.target.value })}
              />
            </Field>
            <Field label="Email address" required>
              <Input
                type="email"
                autoComplete="email"
                value={draft.email}
                onChange={(e) => set({ email: e.target.value })}
              />
            </Field>
            <Field label="Phone number" hint="Optional">
              <Input
                type="tel"
                autoComplete="tel"
                value={draft.phone}
                onChange={(e) => set({ phone: e.target.value })}
              />
            </Field>
          </div>
          {contactError ? <Alert tone="error">{contactError}</Alert> : null}
          {error && !contactError ? <Alert tone="error">{error}</Alert> : null}
        </div>
      ) : null}
    </Modal>
  );
}
