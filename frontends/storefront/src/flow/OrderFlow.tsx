// The guided flow around its steps: the progress bar ("Step n of 5", percent, labels), Back/Continue,
// and Request Quote (files first, then the order, one Idempotency-Key per attempt, guarded against a
// double submit). Errors show in the page and as a toast, never as window.alert.
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Send } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, ProgressBar, cn, toast } from '@shop/ui';
import { priceListOf } from '@shop/contracts';
import { createOrder, uploadFiles, ShopError } from '../api/shop.js';
import { useSiteContent } from '../content.js';
import type { FieldProblem } from '../messages.js';
import { buildOrderBody, canContinue, fallbackOrderNumber, progressLabels, progressOf, STEP } from './model.js';
import {
  StepContact,
  StepContent,
  StepDone,
  StepItem,
  StepMethod,
  StepReview,
  StepShipping,
  StepSpecs,
} from './Steps.js';
import { newIdempotencyKey, type OrderFlowState } from './useOrderFlow.js';

export interface OrderFlowProps {
  flow: OrderFlowState;
  /** Leaves the flow for the landing (Back on the first step, Back to Main Menu). */
  onExit: () => void;
}

export function FlowProgress({ step }: { step: number }) {
  const { phase, percent, label } = progressOf(step);
  return (
    <div className="flex flex-col gap-2" data-testid="flow-progress">
      <div className="flex items-center justify-between text-sm">
        <span className="font-semibold text-khaki-50">
          Step {phase} of {progressLabels.length}
        </span>
        <span className="text-khaki-200">{Math.round(percent)}%</span>
      </div>
      <ProgressBar
        value={percent}
        label="Order progress"
        valueText={`Step ${phase} of ${progressLabels.length}: ${label}`}
      />
      <ol className="grid grid-cols-5 text-center text-xs">
        {progressLabels.map((name, i) => (
          <li
            key={name}
            aria-current={i + 1 === phase ? 'step' : undefined}
            className={cn(i + 1 <= phase ? 'font-semibold text-brass-300' : 'text-khaki-300')}
          >
            {name}
          </li>
        ))}
      </ol>
    </div>
  );
}

export function OrderFlow({ flow, onExit }: OrderFlowProps) {
  const { form, step, setStep, update, reset, confirm, orderNumber, attempt } = flow;
  const [failure, setFailure] = useState<{ message: string; problems: FieldProblem[] } | null>(null);
  // The button is disabled while pending, but two clicks can land before React re-renders it.
  const inFlight = useRef(false);
  const panel = useRef<HTMLDivElement>(null);
  // The site content's price list: the estimate sent is the one shown (and the one the server recomputes).
  const site = useSiteContent();
  const prices = site.data ? priceListOf(site.data) : undefined;

  // Each new step moves focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [step]);

  const submit = useMutation({
    mutationFn: async () => {
      // One attempt = one Idempotency-Key; a retry after a failure reuses it (and its uploaded files),
      // so the server answers with the same order instead of a second one.
      const current = (attempt.current ??= { key: newIdempotencyKey(), uploaded: null });
      if (current.uploaded === null) {
        current.uploaded = form.uploadedFiles.length ? await uploadFiles(form.uploadedFiles) : [];
      }
      return createOrder(buildOrderBody(form, current.uploaded, prices), current.key);
    },
    onSuccess: (order) => {
      setFailure(null);
      confirm(order.orderNumber || fallbackOrderNumber(form.itemType));
      toast.success('Quote request sent');
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      setFailure({ message, problems: error instanceof ShopError ? error.problems : [] });
      toast.error(message);
    },
    onSettled: () => {
      inFlight.current = false;
    },
  });

  function requestQuote() {
    if (inFlight.current || submit.isPending) return;
    inFlight.current = true;
    setFailure(null);
    submit.mutate();
  }

  const back = () => {
    setFailure(null);
    if (step === STEP.item) onExit();
    else setStep(step - 1);
  };

  const next = () => {
    if (canContinue(step, form)) setStep(step + 1);
  };

  const stepProps = { form, update };
  const ready = canContinue(step, form);
  // §5: on the method step Continue appears only once a method is chosen.
  const showContinue = step < STEP.review && (step !== STEP.method || form.designMethod !== null);
  const highlight = step === STEP.content && form.description.trim().length >= 10;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8" data-testid="order-flow" data-step={step}>
      <FlowProgress step={step} />
      <Card className="p-5 sm:p-6">
        <div ref={panel}>
          {step === STEP.item ? <StepItem {...stepProps} /> : null}
          {step === STEP.method ? <StepMethod {...stepProps} /> : null}
          {step === STEP.content ? <StepContent {...stepProps} /> : null}
          {step === STEP.specs ? <StepSpecs {...stepProps} /> : null}
          {step === STEP.shipping ? <StepShipping {...stepProps} /> : null}
          {step === STEP.contact ? <StepContact {...stepProps} /> : null}
          {step === STEP.review ? <StepReview form={form} /> : null}
          {step === STEP.done ? (
            <StepDone
              orderNumber={orderNumber}
              email={form.email}
              onAnother={reset}
              onMenu={() => {
                reset();
                onExit();
              }}
            />
          ) : null}
        </div>

        {failure && step === STEP.review ? (
          <Alert tone="error" className="mt-5" title={failure.message}>
            {failure.problems.length ? (
              <ul className="list-disc pl-5">
                {failure.problems.map((p) => (
                  <li key={`${p.field}:${p.message}`}>{p.field ? `${p.field}: ${p.message}` : p.message}</li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}

        {step < STEP.done ? (
          <div className="mt-6 flex items-center justify-between gap-3 border-t border-olive-700 pt-5">
            <Button variant="secondary" onClick={back} disabled={submit.isPending}>
              <ArrowLeft aria-hidden="true" className="size-4" /> Back
            </Button>
            {showContinue ? (
              <Button
                onClick={next}
                disabled={!ready}
                data-highlight={highlight ? 'true' : undefined}
                className={cn(highlight && 'ring-2 ring-brass-200 ring-offset-2 ring-offset-olive-900')}
              >
                Continue <ArrowRight aria-hidden="true" className="size-4" />
              </Button>
            ) : null}
            {step === STEP.review ? (
              <Button
                onClick={requestQuote}
                loading={submit.isPending}
                loadingText={
                  form.uploadedFiles.length && !attempt.current?.uploaded ? 'Uploading files...' : 'Submitting...'
                }
              >
                <Send aria-hidden="true" className="size-4" /> Request Quote
              </Button>
            ) : null}
          </div>
        ) : null}
      </Card>
    </div>
  );
}
