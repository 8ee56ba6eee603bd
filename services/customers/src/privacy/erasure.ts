// Erasing a customer in the customers service (issue 16). The admin's request (routes/admin/privacy.ts)
// erases the profile, writes the audit record and the `privacy.erasure_requested` event in one
// transaction; every other service anonymises its own documents when the event reaches it. The same
// event comes back to this service's consumer (a replay, a restore): erasing again changes nothing.
//
// What goes: name, email (replaced by the erasure's anonymous address, so the customer's orders stay
// grouped and their figures keep counting), phone, saved address, verification codes and lookup
// counters of the address. What stays: the figures and the per-order facts (totals, statuses, dates).
import type { ClientSession } from 'mongoose';
import { erasedName, type CustomerErasureRequested } from '@shop/contracts';
import { consumeEvent } from '@shop/service-kit';
import type { StatusSettings } from '../config.js';
import { refreshCustomer } from '../events/projection.js';
import type { CustomersModels } from '../models/index.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Erases the customer's personal data; false when this erasure (or an earlier one) already did. */
export async function eraseCustomerProfile(
  models: CustomersModels,
  session: ClientSession,
  data: CustomerErasureRequested,
  thresholds: StatusSettings,
  now: Date,
): Promise<boolean> {
  const { Customer, CustomerOrder, VerificationCode, RateCounter } = models;
  const customer = await Customer.findById(data.customerId).session(session);
  if (!customer || customer.erasedAt) return false;
  await CustomerOrder.updateMany(
    { customerEmail: data.email },
    { $set: { customerEmail: data.anonymisedEmail } },
    { session },
  );
  customer.set({
    email: data.anonymisedEmail,
    customerName: erasedName,
    phone: '',
    lastShippingAddress: null,
    erasedAt: now,
    erasureId: data.erasureId,
  });
  await customer.save({ session });
  // Figures again from the same orders (unchanged), and the search text without the old name and address.
  await refreshCustomer(models, session, data.anonymisedEmail, thresholds);
  await VerificationCode.deleteMany({ email: data.email }, { session });
  await RateCounter.deleteMany({ _id: new RegExp(`^lookup-email:${escapeRegExp(data.email)}:`) }, { session });
  return true;
}

export function erasureRequestedConsumer(models: CustomersModels, thresholds: StatusSettings, clock: () => Date) {
  return consumeEvent('privacy.erasure_requested', async (event, { session, log }) => {
    const erased = await eraseCustomerProfile(models, session, event.data, thresholds, clock());
    log.info(
      { erasureId: event.data.erasureId, customerId: event.data.customerId, erased },
      erased ? 'customer erased' : 'customer already erased; nothing to do',
    );
  });
}
