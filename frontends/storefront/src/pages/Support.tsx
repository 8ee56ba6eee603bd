// /support: Contact Support (storefront §2, §4 editing -> sending -> sent, on failure stays editing; §5
// name, email, subject, message required, order number optional; §8 the failure alert). The server makes
// the MSG- reference; the page shows it with the response promise and the public contact details.
import { CheckCircle2, Clock, Mail, Phone } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from '@shop/ui/router';
import { supportPriorities, supportTexts, type SupportPriority } from '@shop/contracts';
import { Alert, Button, Card, Field, Input, Select, Textarea, buttonClasses } from '@shop/ui';
import { telHref, useShopContact } from '../api/contact.js';
import { sendSupportMessage } from '../api/support.js';
import { InfoPage } from '../info/InfoPage.js';
import { StorefrontQueries } from '../query.js';

interface Values {
  name: string;
  email: string;
  orderNumber: string;
  subject: string;
  message: string;
  priority: SupportPriority;
}

const priorityLabels: Record<SupportPriority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
};
const empty: Values = { name: '', email: '', orderNumber: '', subject: '', message: '', priority: 'normal' };

function ContactDetails() {
  const contact = useShopContact();
  if (contact === undefined) return <p className="text-sm text-khaki-300">Loading contact details...</p>;
  if (contact === null)
    return <p className="text-sm text-khaki-200">You can also reply to any email we have sent you.</p>;
  return (
    <ul className="flex flex-col gap-2 text-sm text-khaki-100" data-testid="support-contact">
      <li className="flex items-center gap-2">
        <Mail aria-hidden="true" className="size-4 text-brass-300" />
        <a className="underline hover:text-khaki-50" href={`mailto:${contact.supportEmail}`}>
          {contact.supportEmail}
        </a>
      </li>
      {contact.supportPhone ? (
        <li className="flex items-center gap-2">
          <Phone aria-hidden="true" className="size-4 text-brass-300" />
          <a className="underline hover:text-khaki-50" href={telHref(contact.supportPhone)}>
            {contact.supportPhone}
          </a>
        </li>
      ) : null}
      {contact.supportHours ? (
        <li className="flex items-start gap-2">
          <Clock aria-hidden="true" className="mt-0.5 size-4 text-brass-300" />
          <span>
            Weekdays: {contact.supportHours.weekday}
            <br />
            Weekends: {contact.supportHours.weekend}
          </span>
        </li>
      ) : null}
    </ul>
  );
}

function SupportForm() {
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');
  const [reference, setReference] = useState('');
  const [failed, setFailed] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({ defaultValues: empty });

  const onSubmit = handleSubmit(async (values) => {
    if (state === 'sending') return;
    setState('sending');
    setFailed(false);
    const result = await sendSupportMessage({ ...values, orderNumber: values.orderNumber || undefined });
    if (result.ok) {
      setReference(result.reference);
      setState('sent');
      reset(empty);
    } else {
      setFailed(true);
      setState('editing');
    }
  });

  if (state === 'sent') {
    return (
      <Card className="p-6 text-center" data-testid="support-sent">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-10 text-ok-400" />
        <h2 className="mt-3 font-display text-2xl font-bold uppercase text-khaki-50">Message Sent!</h2>
        <p className="mt-2 text-khaki-100">
          Your reference:{' '}
          <strong className="font-mono text-brass-300" data-testid="support-reference">
            {reference}
          </strong>
        </p>
        <p className="mt-2 text-khaki-200">
          {supportTexts.responsePromise} A confirmation is on its way to your email.
        </p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          <Button variant="secondary" onClick={() => setState('editing')}>
            Send Another Message
          </Button>
          <Link to="/" className={buttonClasses('ghost')}>
            Back to Home
          </Link>
        </div>
      </Card>
    );
  }

  return (
    <Card className="p-5">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Contact Support">
        {failed ? <Alert tone="error">{supportTexts.sendFailed}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" required error={errors.name?.message}>
            <Input
              autoComplete="name"
              {...register('name', { validate: (v) => v.trim() !== '' || 'Please enter your name' })}
            />
          </Field>
          <Field label="Email" required error={errors.email?.message}>
            <Input
              type="email"
              autoComplete="email"
              {...register('email', {
                validate: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) || 'Please enter a valid email address',
              })}
            />
          </Field>
          <Field label="Order Number" hint="Optional">
            <Input {...register('orderNumber', { setValueAs: (v: string) => v.trim().toUpperCase() })} />
          </Field>
          <Field label="Priority">
            <Select {...register('priority')}>
              {supportPriorities.map((p) => (
                <option key={p} value={p}>
                  {priorityLabels[p]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field label="Subject" required error={errors.subject?.message}>
          <Input {...register('subject', { validate: (v) => v.trim() !== '' || 'Please enter a subject' })} />
        </Field>
        <Field label="Message" required error={errors.message?.message}>
          <Textarea
            rows={6}
            {...register('message', { validate: (v) => v.trim() !== '' || 'Please enter your message' })}
          />
        </Field>
        <Button type="submit" disabled={state === 'sending'} aria-busy={state === 'sending'}>
          {state === 'sending' ? 'Sending...' : 'Send Message'}
        </Button>
      </form>
    </Card>
  );
}

export default function Support() {
  return (
    <StorefrontQueries>
      <InfoPage
        title="Contact Support"
        view="support"
        intro={<p>Questions about a quote, an order or a design? Send us a message. {supportTexts.responsePromise}</p>}
      >
        <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <SupportForm />
          <Card className="h-fit p-5">
            <h2 className="font-display text-lg font-bold uppercase text-khaki-50">Reach Us Directly</h2>
            <div className="mt-3">
              <ContactDetails />
            </div>
            <p className="mt-4 text-sm text-khaki-200">
              Looking for an answer now? See the{' '}
              <Link className="underline" to="/faq">
                FAQ
              </Link>
              ,{' '}
              <Link className="underline" to="/track">
                track your order
              </Link>{' '}
              or request a{' '}
              <Link className="underline" to="/returns">
                return
              </Link>
              .
            </p>
          </Card>
        </div>
      </InfoPage>
    </StorefrontQueries>
  );
}
