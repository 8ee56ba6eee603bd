// Customer management (admin part B §2.2, §6): GET /api/customers (a page of customers with search,
// status filter and sort on the server, and the summary over every customer) and GET /api/customers/{id}
// (the customer with the order history). The gateway lets only a signed-in admin reach these (its rule
// for /api/customers/**; lookup and verify stay public). Status is derived at read time from the stored
// vip flag and the last order date, so "active" never goes stale as time passes.
import { z } from 'zod';
import {
  adminCustomerPaths,
  customerDetailSchema,
  customerListQuerySchema,
  customerListSchema,
  customerNotFoundMessage,
  errorEnvelopeSchema,
  type AdminCustomer,
  type CustomerOrder,
  type CustomerSortField,
  type CustomerSummary,
} from '@shop/contracts';
import { notFound, type ServiceApp, type ServiceContext } from '@shop/service-kit';
import type { StatusSettings } from '../../config.js';
import { activeSince, customerStatusOf } from '../../domain/customer-status.js';
import type { CustomerDoc, CustomerOrderDoc, CustomersModels } from '../../models/index.js';

const errors = { '4xx': errorEnvelopeSchema };
export const idParams = z.object({ id: z.string() });
const objectIdPattern = /^[0-9a-f]{24}$/i;
/** Customer ids are ObjectIds: anything else under /api/customers/ is not a route (the kit's 404), never a lookup. */
export const customerIdPath = (suffix = '') => `/api/customers/:id(^[0-9a-fA-F]{24}$)${suffix}`;

/** Each sort leads an index (models/customer.ts); `_id` breaks ties so pages never overlap. */
const sortFields: Record<CustomerSortField, string> = {
  lastOrderDate: 'lastOrderAt',
  firstOrderDate: 'firstOrderAt',
  totalSpent: 'totalSpent',
  totalOrders: 'orderCount',
  name: 'nameKey',
};

type StoredCustomer = CustomerDoc & { _id: { toString(): string } };

/** At most this many search matches are sorted in memory rather than found in sort-index order. */
const smallMatchSet = 250;

/** One page of customers sorted like the index would (the field, then _id), for a small match set. */
function sortedPage(
  docs: StoredCustomer[],
  field: string,
  dir: 1 | -1,
  page: number,
  pageSize: number,
): StoredCustomer[] {
  const key = (d: StoredCustomer) => (d as unknown as Record<string, unknown>)[field];
  const cmp = (a: unknown, b: unknown) =>
    a instanceof Date && b instanceof Date ? a.getTime() - b.getTime() : a! < b! ? -1 : a! > b! ? 1 : 0;
  docs.sort((a, b) => dir * (cmp(key(a), key(b)) || cmp(a._id.toString(), b._id.toString())));
  return docs.slice((page - 1) * pageSize, page * pageSize);
}
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function customerView(c: StoredCustomer, now: Date, thresholds: StatusSettings): AdminCustomer {
  return {
    id: c._id.toString(),
    name: c.customerName,
    email: c.email,
    phone: c.phone,
    status: customerStatusOf({ vip: c.vip, lastOrderDate: c.lastOrderAt }, now, thresholds),
    totalOrders: c.orderCount,
    totalSpent: c.totalSpent,
    averageOrderValue: c.averageOrderValue,
    firstOrderDate: iso(c.firstOrderAt),
    lastOrderDate: iso(c.lastOrderAt),
    preferredItemType: c.preferredItemType ?? null,
    lifetimeStats: { completedOrders: c.completedOrders, avgDaysBetweenOrders: c.avgDaysBetweenOrders },
    ...(c.erasedAt ? { erasedAt: new Date(c.erasedAt).toISOString() } : {}),
  };
}

export function orderView(o: CustomerOrderDoc & { _id: string }): CustomerOrder {
  return {
    id: o._id,
    orderNumber: o.orderNumber,
    itemType: o.itemType,
    total: o.total,
    quantity: o.quantity,
    status: o.status,
    submittedDate: (o.submittedDate as Date).toISOString(),
  };
}

/** The customer by id, or a 404 the admin can read (an id that is not an ObjectId is simply not found). */
export async function loadCustomer(models: CustomersModels, id: string): Promise<StoredCustomer> {
  const doc = objectIdPattern.test(id) ? await models.Customer.findById(id).lean<StoredCustomer>() : null;
  if (!doc) throw notFound(customerNotFoundMessage);
  return doc;
}

export function adminCustomerRoutes(
  app: ServiceApp,
  ctx: ServiceContext<CustomersModels>,
  options: { thresholds: StatusSettings; clock: () => Date },
) {
  const { Customer, CustomerOrder } = ctx.models;
  const { thresholds, clock } = options;

  async function summary(): Promise<CustomerSummary> {
    const [groups, vipCustomers] = await Promise.all([
      Customer.aggregate<{ n: number; spent: number; orders: number }>([
        { $group: { _id: null, n: { $sum: 1 }, spent: { $sum: '$totalSpent' }, orders: { $sum: '$spentOrders' } } },
      ]),
      Customer.countDocuments({ vip: true }),
    ]);
    const g = groups[0] ?? { n: 0, spent: 0, orders: 0 };
    const round2 = (n: number) => Math.round(n * 100) / 100;
    return {
      totalCustomers: g.n,
      vipCustomers,
      averageLifetimeValue: g.n > 0 ? round2(g.spent / g.n) : 0,
      averageOrderValue: g.orders > 0 ? round2(g.spent / g.orders) : 0,
    };
  }

  app.get(
    adminCustomerPaths.list,
    {
      schema: {
        tags: ['admin customers'],
        summary: 'Customers: a page with search, status filter and sort, and the summary over every customer',
        querystring: customerListQuerySchema,
        response: { 200: customerListSchema, ...errors },
      },
    },
    async (request) => {
      const { page, pageSize, search, status, sortBy, sortDir } = request.query;
      const now = clock();
      const filter: Record<string, unknown> = {};
      if (status === 'vip') filter.vip = true;
      else if (status === 'active')
        Object.assign(filter, { lastOrderAt: { $gte: activeSince(now, thresholds) }, vip: false });
      else if (status === 'inactive')
        Object.assign(filter, { lastOrderAt: { $lt: activeSince(now, thresholds) }, vip: false });
      if (search) filter.searchText = new RegExp(search.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const dir = sortDir === 'asc' ? 1 : -1;
      const sort: Record<string, 1 | -1> = { [sortFields[sortBy]]: dir, _id: dir };
      const pageOf = () =>
        Customer.find(filter)
          .sort(sort)
          .skip((page - 1) * pageSize)
          .limit(pageSize)
          .lean<StoredCustomer[]>();
      let docs: StoredCustomer[];
      let total: number;
      let counts: CustomerSummary;
      if (search) {
        // A search that matches few customers would walk the whole sort index to fill one page (the
        // text is only known to match by reading each customer): one scan collects up to a small match
        // set, sorted here; only a search matching more takes the index (load-tests/RESULTS.md).
        let matches: StoredCustomer[];
        [matches, counts] = await Promise.all([
          Customer.find(filter)
            .limit(smallMatchSet + 1)
            .lean<StoredCustomer[]>(),
          summary(),
        ]);
        if (matches.length <= smallMatchSet) {
          total = matches.length;
          docs = sortedPage(matches, sortFields[sortBy], dir, page, pageSize);
        } else {
          [docs, total] = await Promise.all([pageOf(), Customer.countDocuments(filter)]);
        }
      } else {
        [docs, total, counts] = await Promise.all([pageOf(), Customer.countDocuments(filter), summary()]);
      }
      return {
        success: true as const,
        customers: docs.map((d) => customerView(d, now, thresholds)),
        summary: counts,
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
      };
    },
  );

  app.get(
    customerIdPath(),
    {
      schema: {
        tags: ['admin customers'],
        summary: 'One customer with figures and the order history (newest first)',
        params: idParams,
        response: { 200: customerDetailSchema, ...errors },
      },
    },
    async (request) => {
      const customer = await loadCustomer(ctx.models, request.params.id);
      const orders = await CustomerOrder.find({ customerEmail: customer.email, submittedDate: { $ne: null } })
        .sort({ submittedDate: -1, _id: -1 })
        .lean<(CustomerOrderDoc & { _id: string })[]>();
      return {
        success: true as const,
        customer: { ...customerView(customer, clock(), thresholds), orders: orders.map(orderView) },
      };
    },
  );
}
