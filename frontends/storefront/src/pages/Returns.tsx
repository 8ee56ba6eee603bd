// /returns: Returns and Exchanges (storefront §2, §3 return request, §4 editing -> submitting ->
// submitted, §5 order number, email, reason (buttons) and description required; photos optional, at most
// 5 (extras dropped), images only, up to 10MB each; §9 the promises). Unlike the spec's form, ours sends:
// the server checks the order and email, the 30-day window and each photo, and answers a RET- reference.
import { CheckCircle2, ImagePlus, X } from 'lucide-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from '@shop/ui/router';
import {
  formatMegabytes,
  returnConditionLabels,
  returnConditions,
  returnReasonLabels,
  returnReasons,
  returnRules,
  supportTexts,
} from '@shop/contracts';
import { Alert, Button, Card, ChoiceTile, Field, Input, Select, Textarea, buttonClasses } from '@shop/ui';
import { sendReturn } from '../api/support.js';
import { InfoPage } from '../info/InfoPage.js';

interface Values {
  orderNumber: string;
  email: string;
  reason: string;
  itemCondition: string;
  description: string;
}
const empty: Values = { orderNumber: '', email: '', reason: '', itemCondition: 'new_unopened', description: '' };

function ReturnsForm() {
  const [values, setValues] = useState<Values>(empty);
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoNote, setPhotoNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [state, setState] = useState<'editing' | 'submitting' | 'submitted'>('editing');
  const [failure, setFailure] = useState('');
  const [reference, setReference] = useState('');

  const set = (key: keyof Values) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const addPhotos = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(e.target.files ?? []);
    e.target.value = '';
    const images = chosen.filter((f) => f.type.startsWith('image/'));
    const tooBig = images.filter((f) => f.size > returnRules.photoMaxBytes);
    const fitting = images.filter((f) => f.size <= returnRules.photoMaxBytes);
    const next = [...photos, ...fitting].slice(0, returnRules.photosMax);
    const notes: string[] = [];
    if (images.length < chosen.length) notes.push('Only image files can be attached.');
    if (tooBig.length) notes.push(`${tooBig.map((f) => f.name).join(', ')}: larger than 10MB.`);
    if (photos.length + fitting.length > returnRules.photosMax)
      notes.push(`Up to ${returnRules.photosMax} photos; the extra ones were left out.`);
    setPhotoNote(notes.join(' '));
    setPhotos(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state === 'submitting') return;
    const problems: Partial<Record<keyof Values, string>> = {};
    if (!values.orderNumber.trim()) problems.orderNumber = 'Please enter your order number';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim()))
      problems.email = 'Please enter the email address of the order';
    if (!values.reason) problems.reason = 'Please choose a reason for the return';
    if (!values.description.trim()) problems.description = 'Please describe the problem';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setState('submitting');
    setFailure('');
    const result = await sendReturn({ ...values, orderNumber: values.orderNumber.trim().toUpperCase(), photos });
    if (result.ok) {
      setReference(result.reference);
      setState('submitted');
    } else {
      setFailure(result.error);
      setState('editing');
    }
  };

  if (state === 'submitted') {
    return (
      <Card className="p-6 text-center" data-testid="return-submitted">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-10 text-ok-400" />
        <h2 className="mt-3 font-display text-2xl font-bold uppercase text-khaki-50">Return Request Submitted</h2>
        <p className="mt-2 text-khaki-100">
          Your reference:{' '}
          <strong className="font-mono text-brass-300" data-testid="return-reference">
            {reference}
          </strong>
        </p>
        <p className="mt-2 text-khaki-200">{supportTexts.returnPromise}</p>
        <div className="mt-5 flex flex-wrap justify-center gap-3">
          <Button
            variant="secondary"
            onClick={() => {
              setValues(empty);
              setPhotos([]);
              setPhotoNote('');
              setState('editing');
            }}
          >
            Submit Another Return
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
      <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Return request">
        {failure ? (
          <Alert tone="error" title="We could not submit your return">
            {failure}
          </Alert>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Order Number" required error={errors.orderNumber}>
            <Input name="orderNumber" value={values.orderNumber} onChange={set('orderNumber')} />
          </Field>
          <Field label="Email" required error={errors.email}>
            <Input name="email" type="email" autoComplete="email" value={values.email} onChange={set('email')} />
          </Field>
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-khaki-100">
            Reason for Return
            <span aria-hidden="true" className="ml-0.5 text-brass-400">
              *
            </span>
          </legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {returnReasons.map((reason) => (
              <ChoiceTile
                key={reason}
                selected={values.reason === reason}
                title={returnReasonLabels[reason]}
                onClick={() => setValues((v) => ({ ...v, reason }))}
              />
            ))}
          </div>
          {errors.reason ? (
            <p role="alert" className="mt-1 text-sm text-alert-400">
              {errors.reason}
            </p>
          ) : null}
        </fieldset>
        <Field label="Item Condition">
          <Select name="itemCondition" value={values.itemCondition} onChange={set('itemCondition')}>
            {returnConditions.map((c) => (
              <option key={c} value={c}>
                {returnConditionLabels[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Description" required error={errors.description}>
          <Textarea name="description" rows={5} value={values.description} onChange={set('description')} />
        </Field>
        <div>
          <label htmlFor="return-photos" className={buttonClasses('secondary', 'md', 'cursor-pointer')}>
            <ImagePlus aria-hidden="true" className="size-4" /> Add Photos
          </label>
          <input
            id="return-photos"
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            onChange={addPhotos}
            aria-describedby="return-photos-hint"
          />
          <p id="return-photos-hint" className="mt-1 text-xs text-khaki-300">
            Optional: up to {returnRules.photosMax} photos, images only, up to 10MB each.
          </p>
          {photoNote ? (
            <p role="status" className="mt-1 text-sm text-caution-400">
              {photoNote}
            </p>
          ) : null}
          {photos.length ? (
            <ul className="mt-2 flex flex-col gap-1 text-sm text-khaki-100" data-testid="return-photos">
              {photos.map((p, i) => (
                <li
                  key={`${p.name}-${i}`}
                  className="flex items-center justify-between gap-2 rounded border border-olive-600 px-2 py-1"
                >
                  <span className="truncate">
                    {p.name} ({formatMegabytes(p.size)})
                  </span>
                  <button
                    type="button"
                    className="rounded p-1 hover:bg-olive-700"
                    aria-label={`Remove ${p.name}`}
                    onClick={() => setPhotos((all) => all.filter((_, j) => j !== i))}
                  >
                    <X aria-hidden="true" className="size-4" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <Button type="submit" disabled={state === 'submitting'} aria-busy={state === 'submitting'}>
          {state === 'submitting' ? 'Submitting...' : 'Submit Return Request'}
        </Button>
      </form>
    </Card>
  );
}

export default function Returns() {
  return (
    <InfoPage
      title="Returns and Exchanges"
      view="returns"
      intro={
        <p>
          Something wrong with your order? Items can be returned within 30 days of delivery. Tell us what happened and
          we will make it right.
        </p>
      }
    >
      <section aria-labelledby="return-policy" className="grid gap-3 sm:grid-cols-3">
        <h2 id="return-policy" className="sr-only">
          How returns work
        </h2>
        {[
          ['Label within 24 hours', 'We email you a prepaid return label.'],
          ['Processed in 2-3 business days', 'Once your return arrives, we inspect it.'],
          ['Refund or replacement within 3 days', 'Defective items are refunded or replaced.'],
        ].map(([title, text]) => (
          <Card key={title} className="p-4">
            <p className="font-semibold text-brass-300">{title}</p>
            <p className="mt-1 text-sm text-khaki-200">{text}</p>
          </Card>
        ))}
      </section>
      <ReturnsForm />
    </InfoPage>
  );
}
