// Customer Management (admin part B §2.2): four summary cards, search, status filter (all, vip, active,
// inactive), the table (customer; status; orders with the completed count; total spent; average order;
// last order with the preferred item; view details), Export to CSV (every matching customer, the date in
// the file name), Refresh, "No customers found" with a hint that depends on the filters, and "Error
// Loading Customers" with Retry. Search, filter and paging run on the server.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Crown, Download, Eye, RefreshCw, Users, Wallet, Receipt } from 'lucide-react';
import { useState } from 'react';
import {
  catalog,
  customerCsvFileName,
  customerListFailedMessage,
  customerStatusLabels,
  customerStatuses,
  customersCsv,
  formatMoney,
  type AdminCustomer,
} from '@shop/contracts';
import {
  Badge,
  Button,
  Card,
  CardBody,
  Cell,
  DataTable,
  ErrorState,
  Field,
  Input,
  Select,
  Skeleton,
  toast,
} from '@shop/ui';
import { customerKeys, downloadText, fetchAllCustomers, fetchCustomers, type CustomerFilters } from './api.js';
import { CustomerDetail } from './CustomerDetail.js';
import { shortDate, statusTone } from './format.js';

function SummaryCard({
  title,
  value,
  icon: Icon,
  testId,
}: {
  title: string;
  value: string | undefined;
  icon: typeof Users;
  testId: string;
}) {
  return (
    <Card>
      <CardBody className="flex items-center gap-4">
        <Icon aria-hidden="true" className="size-8 shrink-0 text-brass-400" />
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-khaki-300">{title}</p>
          {value === undefined ? (
            <Skeleton className="mt-1 h-7 w-24" />
          ) : (
            <p className="font-display text-2xl font-bold text-khaki-50" data-testid={testId}>
              {value}
            </p>
          )}
        </div>
      </CardBody>
    </Card>
  );
}

function CustomerRow({ customer: c, onOpen }: { customer: AdminCustomer; onOpen: () => void }) {
  return (
    <tr className="border-t border-olive-700 hover:bg-olive-800" data-testid="customer-row">
      {/* Long names and addresses are cut with an ellipsis (full text in the title) so the table fits 1024 px. */}
      {/* 12 px from the card's edge on both sides (pl/pr win over the table's px-2). */}
      <Cell className="max-w-56 pl-3 pr-3">
        <span className="block truncate font-semibold text-khaki-50" title={c.name}>
          {c.name || 'Unnamed customer'}
        </span>
        <span className="block truncate text-xs text-khaki-300" title={c.email}>
          {c.email}
        </span>
      </Cell>
      <Cell>
        <Badge tone={statusTone[c.status]}>{customerStatusLabels[c.status]}</Badge>
      </Cell>
      <Cell className="text-khaki-100" data-testid="customer-orders">
        {c.totalOrders}
        <span className="block text-xs text-khaki-300">{c.lifetimeStats.completedOrders} completed</span>
      </Cell>
      <Cell className="font-semibold text-khaki-50" data-testid="customer-spent">
        {formatMoney(c.totalSpent)}
      </Cell>
      <Cell className="text-khaki-100">{formatMoney(c.averageOrderValue)}</Cell>
      <Cell className="text-khaki-100">
        {c.lastOrderDate ? shortDate(c.lastOrderDate) : '–'}
        <span className="block text-xs text-khaki-300">
          {c.preferredItemType ? catalog[c.preferredItemType].cardTitle : 'No preference yet'}
        </span>
      </Cell>
      <Cell align="right">
        <Button variant="ghost" size="sm" onClick={onOpen} aria-label={`View details of ${c.name || c.email}`}>
          <Eye aria-hidden="true" className="size-4" /> <span className="hidden xl:inline">View Details</span>
        </Button>
      </Cell>
    </tr>
  );
}

export function CustomersView() {
  const client = useQueryClient();
  const [filters, setFilters] = useState<CustomerFilters>({ search: '', status: 'all', page: 1 });
  const [search, setSearch] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const list = useQuery({
    queryKey: customerKeys.list(filters),
    queryFn: ({ signal }) => fetchCustomers(filters, signal),
    placeholderData: keepPreviousData,
  });

  if (openId) return <CustomerDetail id={openId} onBack={() => setOpenId(null)} />;

  const data = list.data;
  const filtered = filters.search.trim() !== '' || filters.status !== 'all';
  const refresh = () => client.invalidateQueries({ queryKey: customerKeys.all });

  async function exportCsv() {
    setExporting(true);
    try {
      const everyone = await fetchAllCustomers({ search: filters.search, status: filters.status });
      const name = customerCsvFileName(new Date());
      downloadText(name, customersCsv(everyone), 'text/csv;charset=utf-8');
      toast.success(`Exported ${everyone.length} ${everyone.length === 1 ? 'customer' : 'customers'} to ${name}`);
    } catch (error) {
      toast.error(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Customer Management</h2>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            onClick={() => void exportCsv()}
            loading={exporting}
            loadingText="Exporting..."
            disabled={!data || data.total === 0}
          >
            <Download aria-hidden="true" className="size-4" /> Export to CSV
          </Button>
          <Button variant="ghost" onClick={() => void refresh()} disabled={list.isFetching}>
            <RefreshCw aria-hidden="true" className="size-4" /> Refresh
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <SummaryCard
          title="Total Customers"
          icon={Users}
          testId="summary-total-customers"
          value={data ? data.summary.totalCustomers.toLocaleString('en-US') : undefined}
        />
        <SummaryCard
          title="VIP Customers"
          icon={Crown}
          testId="summary-vip-customers"
          value={data ? data.summary.vipCustomers.toLocaleString('en-US') : undefined}
        />
        <SummaryCard
          title="Avg Lifetime Value"
          icon={Wallet}
          testId="summary-lifetime-value"
          value={data ? formatMoney(data.summary.averageLifetimeValue) : undefined}
        />
        <SummaryCard
          title="Avg Order Value"
          icon={Receipt}
          testId="summary-order-value"
          value={data ? formatMoney(data.summary.averageOrderValue) : undefined}
        />
      </div>
      <form
        className="flex flex-wrap items-end gap-3"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters((f) => ({ ...f, search, page: 1 }));
        }}
      >
        <Field label="Search customers" className="min-w-60 flex-1">
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, email, phone, order number..."
          />
        </Field>
        <Field label="Status">
          <Select
            value={filters.status}
            onChange={(e) =>
              setFilters((f) => ({ ...f, status: e.target.value as CustomerFilters['status'], page: 1 }))
            }
          >
            <option value="all">All customers</option>
            {customerStatuses.map((s) => (
              <option key={s} value={s}>
                {customerStatusLabels[s]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      {list.isError ? (
        <ErrorState
          title="Error Loading Customers"
          message={customerListFailedMessage}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : (
        <Card className="overflow-x-auto">
          {!data ? (
            <div className="flex flex-col gap-2 p-4">
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
            </div>
          ) : data.customers.length === 0 ? (
            <div className="p-8 text-center" data-testid="customers-empty">
              <p className="font-semibold text-khaki-50">No customers found</p>
              <p className="mt-1 text-sm text-khaki-300">
                {filtered
                  ? 'Try a different search or set the status filter to All customers.'
                  : 'Customers appear here once they place their first order.'}
              </p>
            </div>
          ) : (
            <DataTable
              look="card"
              data-testid="customers-table"
              columns={[
                'Customer',
                'Status',
                'Orders',
                'Total Spent',
                'Avg Order',
                'Last Order',
                { label: 'Actions', hidden: true, align: 'right' },
              ]}
            >
              {data.customers.map((c) => (
                <CustomerRow key={c.id} customer={c} onOpen={() => setOpenId(c.id)} />
              ))}
            </DataTable>
          )}
        </Card>
      )}
      {data && data.totalPages > 1 ? (
        <div className="flex items-center justify-end gap-2 text-sm text-khaki-200">
          <Button
            variant="ghost"
            size="sm"
            disabled={filters.page <= 1}
            onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}
          >
            Previous
          </Button>
          Page {data.page} of {data.totalPages} ({data.total.toLocaleString('en-US')} customers)
          <Button
            variant="ghost"
            size="sm"
            disabled={filters.page >= data.totalPages}
            onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}
          >
            Next
          </Button>
        </div>
      ) : null}
    </div>
  );
}
