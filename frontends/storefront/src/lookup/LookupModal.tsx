// Returning Customer lookup (storefront §2 state 4, §4, §5, §8): search (email) -> verify (6-digit code
// sent by email) -> found (saved details). "Use These Details" prefills the order flow.
import { useMutation } from '@tanstack/react-query';
import { MailCheck, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { customerCategory } from '@shop/contracts';
import { Alert, Button, Field, Input, Modal } from '@shop/ui';
import { lookupCustomer, verifyCustomer, type SavedCustomer } from '../api/shop.js';
import { cleanVerificationCode, messages, verificationCodeProblem } from '../messages.js';

export interface LookupModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The verified customer's details go into the order flow. */
  onUse: (customer: SavedCustomer) => void;
}

type Stage = 'search' | 'verify' | 'found';

const benefits = ['Priority quote processing', 'Order history', 'Faster service'];

export function LookupModal({ open, onOpenChange, onUse }: LookupModalProps) {
  const [stage, setStage] = useState<Stage>('search');
  const [customer, setCustomer] = useState<SavedCustomer | null>(null);
  const emailForm = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const codeForm = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const email = useWatch({ control: emailForm.control, name: 'email' });

  const search = useMutation({
    mutationFn: (address: string) => lookupCustomer(address),
    onSuccess: () => {
      codeForm.reset({ code: '' });
      setStage('verify');
    },
    onError: (error) => emailForm.setError('email', { message: error.message }),
  });

  const verify = useMutation({
    mutationFn: ({ address, code }: { address: string; code: string }) => verifyCustomer(address, code),
    onSuccess: (found) => {
      setCustomer(found);
      setStage('found');
    },
    onError: (error) => codeForm.setError('code', { message: error.message }),
  });

  function startOver() {
    emailForm.reset({ email: '' });
    codeForm.reset({ code: '' });
    search.reset();
    verify.reset();
    setCustomer(null);
    setStage('search');
  }

  function close(next: boolean) {
    if (!next) startOver();
    onOpenChange(next);
  }

  const emailError = emailForm.formState.errors.email?.message;
  const codeError = codeForm.formState.errors.code?.message;

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Returning Customer"
      description={stage === 'search' ? 'Find your saved details with the email address you ordered with.' : undefined}
    >
      {stage === 'search' ? (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={emailForm.handleSubmit(({ email }) => {
            const address = email.trim();
            if (!address) {
              emailForm.setError('email', { message: messages.lookupEmpty });
              return;
            }
            search.mutate(address);
          })}
        >
          <Field label="Email address" required error={emailError}>
            <Input type="email" autoComplete="email" {...emailForm.register('email')} />
          </Field>
          <ul className="list-disc pl-5 text-sm text-khaki-200">
            {benefits.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
          <Button type="submit" loading={search.isPending} loadingText="Searching...">
            Find My Details
          </Button>
        </form>
      ) : null}

      {stage === 'verify' ? (
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={codeForm.handleSubmit(({ code }) => {
            const problem = verificationCodeProblem(code);
            if (problem) {
              codeForm.setError('code', { message: problem });
              return;
            }
            verify.mutate({ address: email.trim(), code });
          })}
        >
          <Alert tone="success" title="Check your email">
            We sent a 6-digit verification code to <span className="font-semibold">{email.trim()}</span>. It is valid
            for 10 minutes.
          </Alert>
          <Field label="Verification code" required error={codeError}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className="text-center font-mono text-2xl tracking-[0.5em]"
              {...codeForm.register('code', {
                // Digits only, 6 at most (§5).
                onChange: (e: { target: HTMLInputElement }) =>
                  codeForm.setValue('code', cleanVerificationCode(e.target.value)),
              })}
            />
          </Field>
          <Button type="submit" loading={verify.isPending} loadingText="Verifying...">
            <MailCheck aria-hidden="true" className="size-4" /> Verify Code
          </Button>
          <div className="flex items-center justify-between gap-2">
            <Button variant="ghost" size="sm" onClick={() => setStage('search')}>
              Back
            </Button>
            <Button variant="ghost" size="sm" onClick={startOver}>
              Didn't receive email?
            </Button>
          </div>
        </form>
      ) : null}

      {stage === 'found' && customer ? (
        <div className="flex flex-col gap-4" data-testid="lookup-found">
          <Alert tone="success" title={`Welcome back, ${customer.customerName.split(' ')[0] || 'friend'}!`}>
            We found your saved details.
          </Alert>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm [&_dd]:min-w-0 [&_dd]:[overflow-wrap:anywhere]">
            <dt className="text-khaki-300">Name</dt>
            <dd className="text-khaki-50">{customer.customerName}</dd>
            <dt className="text-khaki-300">Email</dt>
            <dd className="text-khaki-50">{customer.email}</dd>
            {customer.phone ? (
              <>
                <dt className="text-khaki-300">Phone</dt>
                <dd className="text-khaki-50">{customer.phone}</dd>
              </>
            ) : null}
            {customer.shippingAddress ? (
              <>
                <dt className="text-khaki-300">Ships to</dt>
                <dd className="text-khaki-50">
                  {[
                    customer.shippingAddress.line1,
                    customer.shippingAddress.city,
                    customer.shippingAddress.state,
                    customer.shippingAddress.postalCode,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </dd>
              </>
            ) : null}
            {customer.customerCategory ? (
              <>
                <dt className="text-khaki-300">Customer type</dt>
                <dd className="text-khaki-50">{customerCategory.labels[customer.customerCategory]}</dd>
              </>
            ) : null}
          </dl>
          <Button
            onClick={() => {
              onUse(customer);
              close(false);
            }}
          >
            <UserCheck aria-hidden="true" className="size-4" /> Use These Details
          </Button>
        </div>
      ) : null}
    </Modal>
  );
}
