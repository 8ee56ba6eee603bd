// The guided flow's state, held by the home page because four entries lead into it: a landing card,
// Finalize Order of an AI design, the returning-customer prefill, and Place Another Order.
import { useCallback, useRef, useState } from 'react';
import { countryCodeOf, defaultCountry, limits, type ItemType } from '@shop/contracts';
import type { SavedCustomer } from '../api/shop.js';
import { initialOrderForm, STEP, type OrderForm, type UploadedFileRecord } from './model.js';

/** One submission attempt: its Idempotency-Key and the files it already uploaded, kept for a retry. */
export interface SubmitAttempt {
  key: string;
  uploaded: UploadedFileRecord[] | null;
}

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Splits a saved "First Last" name at the first space (last names may have spaces). */
export function splitName(name: string): { firstName: string; lastName: string } {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  const space = trimmed.indexOf(' ');
  return space < 0
    ? { firstName: trimmed, lastName: '' }
    : { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1) };
}

/** The contact, address and category fields a verified returning customer fills in (§4). */
export function prefillFrom(customer: SavedCustomer, form: OrderForm): Partial<OrderForm> {
  const address = customer.shippingAddress;
  // Profiles saved before the ISO codes say "Canada": both read as CA.
  const country = countryCodeOf(address?.country) ?? defaultCountry;
  return {
    ...splitName(customer.customerName),
    email: customer.email || form.email,
    phone: customer.phone || form.phone,
    ...(customer.customerCategory ? { customerCategory: customer.customerCategory } : {}),
    ...(address
      ? {
          shippingAddress: {
            line1: address.line1 ?? '',
            line2: address.line2 ?? '',
            city: address.city ?? '',
            state: address.state ?? '',
            postalCode: (address.postalCode ?? '').slice(0, limits.postalCodeMax),
            country,
          },
        }
      : {}),
  };
}

export function useOrderFlow() {
  const [form, setForm] = useState<OrderForm>(initialOrderForm);
  const [step, setStep] = useState<number>(STEP.item);
  // The confirmed order's number, shown on step 7.
  const [orderNumber, setOrderNumber] = useState('');
  const attempt = useRef<SubmitAttempt | null>(null);
  // A verified returning customer's details: a fresh request starts from them (the rest is reset).
  const saved = useRef<Partial<OrderForm> | null>(null);
  const fresh = () => ({ ...initialOrderForm(), ...(saved.current ?? {}) });

  /** Any change to the request makes the next submit a new attempt (a new Idempotency-Key). */
  const update = useCallback((patch: Partial<OrderForm>) => {
    attempt.current = null;
    setForm((f) => ({ ...f, ...patch }));
  }, []);

  /** Place Another Order: all data reset, back to the item choice (§4). */
  const reset = useCallback(() => {
    attempt.current = null;
    setOrderNumber('');
    setForm(fresh());
    setStep(STEP.item);
  }, []);

  /** An order was accepted: show the confirmation (step 7) with its number. */
  const confirm = useCallback((number: string, patch: Partial<OrderForm> = {}) => {
    attempt.current = null;
    setOrderNumber(number);
    if (Object.keys(patch).length) setForm((f) => ({ ...f, ...patch }));
    setStep(STEP.done);
  }, []);

  /** A landing card: fresh request for this item, straight to the design method (§4). */
  const startWithItem = useCallback((itemType: ItemType) => {
    attempt.current = null;
    setForm({ ...fresh(), itemType });
    setStep(STEP.method);
  }, []);

  /** Finalize Order of an AI design: method ai, the prompt as description, 50 pieces, specifications (§4). */
  const finalizeAiDesign = useCallback((itemType: ItemType, prompt: string, designId: string | null = null) => {
    attempt.current = null;
    setForm({
      ...fresh(),
      itemType,
      designMethod: 'ai',
      description: prompt.slice(0, limits.descriptionMax),
      quantity: limits.quantity.default,
      aiDesignId: designId,
    });
    setStep(STEP.specs);
  }, []);

  const prefill = useCallback((customer: SavedCustomer) => {
    attempt.current = null;
    setForm((f) => {
      const patch = prefillFrom(customer, f);
      saved.current = patch;
      return { ...f, ...patch };
    });
  }, []);

  return {
    form,
    step,
    setStep,
    update,
    reset,
    confirm,
    orderNumber,
    startWithItem,
    finalizeAiDesign,
    prefill,
    attempt,
  };
}

export type OrderFlowState = ReturnType<typeof useOrderFlow>;
