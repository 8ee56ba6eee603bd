// Everything the shop holds on one customer, as one JSON document (issue 16): this service's part
// (profile, orders as counted, verification codes without their hashes, the audit of privacy requests)
// and each other service's part, asked over NATS request/reply (`rpc.<service>.privacy-export`, answered
// by services/<service>/src/privacy/export.ts). A service that does not answer fails the export with a
// 503 naming it: an export with a part silently missing would not be "everything".
import {
  privacyExportPartSchema,
  privacyExportServices,
  privacyExportSubject,
  type CustomerExport,
  type PrivacyExportPart,
} from '@shop/contracts';
import { AppError, serviceUnavailable, type ServiceContext } from '@shop/service-kit';
import type { CustomerDoc, CustomerOrderDoc, CustomersModels } from '../models/index.js';

const exportTimeoutMs = 10_000;

type StoredCustomer = CustomerDoc & { _id: { toString(): string } };

/** Plain JSON of a stored document: ids and dates as strings. */
const plain = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

async function customersPart(models: CustomersModels, customer: StoredCustomer): Promise<PrivacyExportPart> {
  const { nameKey: _nameKey, searchText: _searchText, ...profile } = customer;
  const [orders, codes, requests] = await Promise.all([
    models.CustomerOrder.find({ customerEmail: customer.email }).sort({ submittedDate: -1 }).lean<CustomerOrderDoc[]>(),
    // The codes' hashes and salts are the shop's secret material, not the customer's data.
    models.VerificationCode.find({ email: customer.email }, { codeHash: 0, salt: 0 }).sort({ createdAt: -1 }).lean(),
    models.PrivacyRequest.find({ customerId: customer._id.toString() }).sort({ requestedAt: 1 }).lean(),
  ]);
  return {
    service: 'customers',
    collections: {
      customers: [plain(profile)],
      customer_orders: orders.map(plain),
      verification_codes: codes.map(plain),
      privacy_requests: requests.map(plain),
    },
  };
}

export async function gatherCustomerExport(
  ctx: ServiceContext<CustomersModels>,
  customer: StoredCustomer,
  exportedBy: string,
  now: Date,
): Promise<CustomerExport> {
  const own = await customersPart(ctx.models, customer);
  const orders = own.collections.customer_orders ?? [];
  const question = {
    email: customer.email,
    orderIds: orders.map((o) => String(o._id)),
    orderNumbers: orders.map((o) => String(o.orderNumber)),
    phones: customer.phone ? [customer.phone] : [],
  };
  const answers = await Promise.allSettled(
    privacyExportServices.map((service) =>
      ctx.bus.request(privacyExportSubject(service), question, {
        schema: privacyExportPartSchema,
        timeout: exportTimeoutMs,
      }),
    ),
  );
  const missing = privacyExportServices.filter((_, i) => answers[i].status === 'rejected');
  if (missing.length) {
    for (const [i, a] of answers.entries()) {
      if (a.status === 'rejected')
        ctx.log.warn({ err: a.reason, service: privacyExportServices[i] }, 'privacy export: a service did not answer');
    }
    const first: unknown = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected')!.reason;
    const detail = first instanceof AppError ? ` (${first.message})` : '';
    throw serviceUnavailable(
      `The export needs every service's part, and ${missing.join(', ')} did not answer${detail}. Nothing was exported; please try again in a moment.`,
    );
  }
  const services: Record<string, PrivacyExportPart> = { customers: own };
  for (const [i, service] of privacyExportServices.entries())
    services[service] = (answers[i] as PromiseFulfilledResult<PrivacyExportPart>).value;
  return { success: true, exportedAt: now.toISOString(), exportedBy, customerId: customer._id.toString(), services };
}
