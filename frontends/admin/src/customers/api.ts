// The back office's customer calls (admin part B §6: GET /api/customers; GET /api/customers/{id} for the
// detail view). Search, status filter, sort and paging run on the server; the CSV export pages through
// every matching customer, not only the page shown. Privacy requests: the export download and the erasure.
import {
  customerDetailSchema,
  customerErasureResultSchema,
  customerExportSchema,
  customerListSchema,
  customerPageSizeMax,
  type AdminCustomer,
  type CustomerErasureRequest,
  type CustomerStatus,
} from '@shop/contracts';
import { adminFetch } from '../api.js';

export interface CustomerFilters {
  search: string;
  status: CustomerStatus | 'all';
  page: number;
}

export const customerKeys = {
  all: ['customers'] as const,
  list: (f: CustomerFilters) => ['customers', 'list', f] as const,
  detail: (id: string) => ['customers', 'detail', id] as const,
};

export const customersPageSize = 25;

function listParams(f: Omit<CustomerFilters, 'page'>, page: number, pageSize: number) {
  const q = new URLSearchParams({ page: String(page), pageSize: String(pageSize), status: f.status });
  if (f.search.trim()) q.set('search', f.search.trim());
  return q;
}

export async function fetchCustomers(f: CustomerFilters, signal?: AbortSignal) {
  return customerListSchema.parse(
    await adminFetch(`/api/customers?${listParams(f, f.page, customersPageSize)}`, { signal }),
  );
}

export async function fetchCustomer(id: string, signal?: AbortSignal) {
  return customerDetailSchema.parse(await adminFetch(`/api/customers/${encodeURIComponent(id)}`, { signal })).customer;
}

/** Every customer matching the search and filter, page after page (for the CSV). */
export async function fetchAllCustomers(f: Omit<CustomerFilters, 'page'>): Promise<AdminCustomer[]> {
  const all: AdminCustomer[] = [];
  for (let page = 1; ; page++) {
    const answer = customerListSchema.parse(
      await adminFetch(`/api/customers?${listParams(f, page, customerPageSizeMax)}`),
    );
    all.push(...answer.customers);
    if (page >= answer.totalPages) return all;
  }
}

/** Hands a text file to the browser as a download. */
export function downloadText(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Privacy requests (issue 16): everything the shop holds on the customer, as the server's one JSON document. */
export async function exportCustomer(id: string) {
  return customerExportSchema.parse(await adminFetch(`/api/customers/${encodeURIComponent(id)}/export`));
}

/** Erases the customer's personal data in every service (the typed email confirms it; the reason is kept in the audit). */
export async function eraseCustomer(id: string, request: CustomerErasureRequest) {
  return customerErasureResultSchema.parse(
    await adminFetch(`/api/customers/${encodeURIComponent(id)}/erasure`, { method: 'POST', json: request }),
  );
}
