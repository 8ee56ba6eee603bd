// The order dashboard (spec §2): four summary cards, the orders table with status tabs and counts,
// search, filters (item type, start and end date), sortable columns, paging, row selection with bulk
// status change and bulk delete, CSV export, the settings modal, and the row actions. Filtering,
// sorting and paging happen on the server (GET /api/orders/admin/orders), so it stays fast with
// 100,000 orders; @tanstack/react-table only draws the page it is given.
import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  ChevronLeft,
  ChevronRight,
  ClipboardList,
  DollarSign,
  Download,
  Eye,
  FileQuestion,
  Filter,
  Hourglass,
  Receipt,
  Search,
  Settings,
  TrendingUp,
} from 'lucide-react';
import {
  adminCsvFileName,
  adminCsvProduct,
  adminOrderMessages,
  adminOrdersPageSizeDefault,
  bulkStatusChoices,
  catalog,
  formatMoney,
  itemTypes,
  orderStatusLabels,
  orderStatuses,
  type AdminOrderListQuery,
  type AdminOrderRow,
  type AdminOrderSortField,
  type ItemType,
  type OrderStatus,
} from '@shop/contracts';
import { Button, Card, CardBody, ErrorState, Field, Input, Modal, Select, Skeleton, cn, toast } from '@shop/ui';
import {
  bulkDelete,
  bulkSetStatus,
  downloadOrdersCsv,
  fetchOrders,
  ordersKeys,
  reasonOf,
  setOrderStatus,
} from './api.js';
import { formatDate } from './format.js';
import { OrderModal, type OrderModalKind } from './modals.js';
import { OrderDetails } from './OrderDetails.js';
import { RefundsDuePanel } from './RefundsDuePanel.js';
import { RowMenu } from './RowMenu.js';
import { SettingsModal } from './SettingsModal.js';
import { StatusSelect, statusLabel } from './status.js';

type StatusTab = 'all' | OrderStatus;

/** The query box waits for a pause in typing before asking the server. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function SummaryCard({
  title,
  value,
  icon: Icon,
  testId,
}: {
  title: string;
  value: string | undefined;
  icon: typeof Receipt;
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

function SortIcon({ dir }: { dir: false | 'asc' | 'desc' }) {
  if (dir === 'asc') return <ArrowUp aria-hidden="true" className="size-3.5" />;
  if (dir === 'desc') return <ArrowDown aria-hidden="true" className="size-3.5" />;
  return <ArrowUpDown aria-hidden="true" className="size-3.5 opacity-50" />;
}

export function OrdersDashboard() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusTab>('all');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 300);
  const [showFilters, setShowFilters] = useState(false);
  const [itemType, setItemType] = useState<'all' | ItemType>('all');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'submittedDate', desc: true }]);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(adminOrdersPageSizeDefault);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [bulkStatus, setBulkStatus] = useState<OrderStatus | ''>('');
  const [bulkBusy, setBulkBusy] = useState(false);
  const [confirmBulkDelete, setConfirmBulkDelete] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [modal, setModal] = useState<{ kind: OrderModalKind; order: AdminOrderRow } | null>(null);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [statusBusy, setStatusBusy] = useState<string | null>(null);

  const query: AdminOrderListQuery = {
    page,
    pageSize,
    status,
    search: search || undefined,
    itemType,
    startDate: startDate || undefined,
    endDate: endDate || undefined,
    sortBy: (sorting[0]?.id ?? 'submittedDate') as AdminOrderSortField,
    sortDir: sorting[0]?.desc === false ? 'asc' : 'desc',
  };

  // A new filter starts again at page 1 with nothing selected.
  useEffect(() => {
    setPage(1);
    setRowSelection({});
  }, [status, search, itemType, startDate, endDate, sorting, pageSize]);

  const orders = useQuery({
    queryKey: ordersKeys.list(query),
    queryFn: ({ signal }) => fetchOrders(query, signal),
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const data = orders.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ordersKeys.all });

  async function changeStatus(order: AdminOrderRow, next: OrderStatus) {
    if (next === order.status) return;
    setStatusBusy(order.id);
    try {
      await setOrderStatus(order.id, next);
      toast.success(`Order #${order.orderNumber} is now ${orderStatusLabels[next]}`);
      await refresh();
    } catch {
      toast.error(adminOrderMessages.statusFailed);
    } finally {
      setStatusBusy(null);
    }
  }

  // Sortable columns need an accessor (react-table only sorts columns that have one); the server sorts.
  const columns = useMemo<ColumnDef<AdminOrderRow>[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        header: ({ table }) => (
          <input
            type="checkbox"
            aria-label="Select every order on this page"
            className="size-4 accent-brass-400"
            checked={table.getIsAllPageRowsSelected()}
            ref={(el) => {
              if (el) el.indeterminate = table.getIsSomePageRowsSelected();
            }}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={`Select order #${row.original.orderNumber}`}
            className="size-4 accent-brass-400"
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      },
      {
        id: 'orderNumber',
        accessorFn: (row) => row.orderNumber,
        header: 'Order',
        cell: ({ row }) => (
          <span className="whitespace-nowrap font-mono text-sm font-semibold text-khaki-50">
            #{row.original.orderNumber}
          </span>
        ),
      },
      {
        id: 'customerName',
        accessorFn: (row) => row.customerName,
        header: 'Customer',
        // Capped and truncated (the full name and email are in the details): long emails must not push
        // the row actions out of a 1024 px screen.
        cell: ({ row }) => (
          <div className="min-w-0 max-w-40 xl:max-w-56" title={`${row.original.customerName} · ${row.original.email}`}>
            <p className="truncate font-semibold text-khaki-50">{row.original.customerName}</p>
            <p className="truncate text-xs text-khaki-300">{row.original.email}</p>
          </div>
        ),
      },
      {
        id: 'itemType',
        accessorFn: (row) => row.itemType,
        header: 'Item',
        cell: ({ row }) => <span className="capitalize">{row.original.itemType}</span>,
      },
      {
        id: 'quantity',
        accessorFn: (row) => row.quantity,
        header: 'Qty',
        cell: ({ row }) => row.original.quantity.toLocaleString('en-US'),
      },
      {
        id: 'status',
        accessorFn: (row) => row.status,
        header: 'Status',
        cell: ({ row }) => (
          <StatusSelect
            status={row.original.status}
            label={`Status of order #${row.original.orderNumber}`}
            disabled={statusBusy === row.original.id}
            onChange={(next) => void changeStatus(row.original, next)}
          />
        ),
      },
      {
        id: 'total',
        accessorFn: (row) => row.total,
        header: 'Total',
        cell: ({ row }) => (
          <span className="whitespace-nowrap font-mono" data-testid="order-total">
            {formatMoney(row.original.total)}
          </span>
        ),
      },
      {
        id: 'submittedDate',
        accessorFn: (row) => row.submittedDate,
        header: 'Submitted',
        cell: ({ row }) => <span className="whitespace-nowrap">{formatDate(row.original.submittedDate)}</span>,
      },
      {
        id: 'actions',
        enableSorting: false,
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row }) => {
          const order = row.original;
          const quoting = order.status === 'pending_quote';
          // Two short stacks (quote actions, then details and menu) keep the column narrow at 1024 px.
          return (
            <div className="flex items-center justify-end gap-1.5">
              {quoting ? (
                <div className="flex flex-col gap-1.5">
                  <Button
                    size="sm"
                    className="w-full"
                    onClick={() => setModal({ kind: 'quote', order })}
                    aria-label={`Apply Quote to order #${order.orderNumber}`}
                  >
                    Apply Quote
                  </Button>
                  <Button
                    size="sm"
                    className="w-full"
                    variant="secondary"
                    onClick={() => setModal({ kind: 'info', order })}
                    aria-label={`More Info for order #${order.orderNumber}`}
                  >
                    More Info
                  </Button>
                </div>
              ) : null}
              <div className={cn('flex items-center gap-1.5', quoting && 'flex-col')}>
                <button
                  type="button"
                  onClick={() => setDetailsId(order.id)}
                  aria-label={`Details of order #${order.orderNumber}`}
                  className="flex size-8 items-center justify-center rounded-md text-khaki-200 hover:bg-olive-700 hover:text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
                >
                  <Eye aria-hidden="true" className="size-4" />
                </button>
                <RowMenu orderNumber={order.orderNumber} onChoose={(kind) => setModal({ kind, order })} />
              </div>
            </div>
          );
        },
      },
    ],
    [statusBusy],
  );

  const table = useReactTable({
    data: data?.orders ?? [],
    columns,
    getRowId: (row) => row.id,
    state: { sorting, rowSelection },
    onSortingChange: setSorting,
    onRowSelectionChange: setRowSelection,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    // A first click sorts ascending for every column (numbers too), the second descending.
    sortDescFirst: false,
    enableRowSelection: true,
    getCoreRowModel: getCoreRowModel(),
  });

  const selectedIds = Object.keys(rowSelection).filter((id) => rowSelection[id]);

  async function applyBulkStatus() {
    if (!bulkStatus || !selectedIds.length) return;
    setBulkBusy(true);
    try {
      const result = await bulkSetStatus(selectedIds, bulkStatus);
      toast.success(
        `${result.updated} ${result.updated === 1 ? 'order' : 'orders'} set to ${orderStatusLabels[bulkStatus]}`,
      );
      setRowSelection({});
      setBulkStatus('');
      await refresh();
    } catch {
      toast.error(adminOrderMessages.statusFailed);
    } finally {
      setBulkBusy(false);
    }
  }

  async function deleteSelected() {
    setBulkBusy(true);
    try {
      const result = await bulkDelete(selectedIds);
      if (result.notFound.length) toast.error(adminOrderMessages.bulkDeleteFailed);
      else toast.success(`${result.updated} ${result.updated === 1 ? 'order' : 'orders'} deleted`);
      setRowSelection({});
      setConfirmBulkDelete(false);
      await refresh();
    } catch {
      toast.error(adminOrderMessages.bulkDeleteFailed);
    } finally {
      setBulkBusy(false);
    }
  }

  async function exportCsv() {
    setExporting(true);
    try {
      const name = await downloadOrdersCsv(query, adminCsvFileName(adminCsvProduct, new Date()));
      toast.success(`Exported ${name}`);
    } catch (error) {
      toast.error(`The export failed: ${reasonOf(error)}`);
    } finally {
      setExporting(false);
    }
  }

  const tabs: StatusTab[] = ['all', ...orderStatuses];
  const summary = data?.summary;
  const filtersActive = itemType !== 'all' || startDate !== '' || endDate !== '';

  return (
    <div className="flex flex-col gap-6" data-testid="orders-dashboard">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Order Management</h2>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void exportCsv()}
            loading={exporting}
            loadingText="Exporting..."
          >
            <Download aria-hidden="true" className="size-4" />
            Export CSV
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setSettingsOpen(true)}>
            <Settings aria-hidden="true" className="size-4" />
            Settings
          </Button>
        </div>
      </div>

      <RefundsDuePanel />

      <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <SummaryCard
          title="Total Orders"
          value={summary?.totalOrders.toLocaleString('en-US')}
          icon={ClipboardList}
          testId="summary-total-orders"
        />
        <SummaryCard
          title="Revenue (completed)"
          value={summary ? formatMoney(summary.completedRevenue) : undefined}
          icon={DollarSign}
          testId="summary-revenue"
        />
        <SummaryCard
          title="Average Order Value"
          value={summary ? formatMoney(summary.averageOrderValue) : undefined}
          icon={TrendingUp}
          testId="summary-average"
        />
        <SummaryCard
          title="Pending Review"
          value={summary?.pendingReview.toLocaleString('en-US')}
          icon={Hourglass}
          testId="summary-pending"
        />
      </section>

      <Card>
        <div className="flex flex-col gap-4 border-b border-olive-700 px-5 py-4">
          <div role="group" aria-label="Filter by status" className="flex flex-wrap gap-1.5">
            {tabs.map((tab) => (
              <button
                key={tab}
                type="button"
                aria-pressed={status === tab}
                onClick={() => setStatus(tab)}
                className={cn(
                  'flex items-center gap-1.5 rounded-md px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-brass-300',
                  status === tab ? 'bg-brass-400 text-ink-950' : 'bg-olive-800 text-khaki-100 hover:bg-olive-700',
                )}
              >
                {tab === 'all' ? 'All' : statusLabel(tab)}
                <span
                  className={cn('rounded-full px-1.5 font-mono', status === tab ? 'bg-ink-950/20' : 'bg-ink-900')}
                  data-testid={`count-${tab}`}
                >
                  {data ? data.counts[tab].toLocaleString('en-US') : '·'}
                </span>
              </button>
            ))}
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="relative min-w-64 flex-1">
              <label htmlFor="orders-search" className="sr-only">
                Search orders
              </label>
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-khaki-400"
              />
              <Input
                id="orders-search"
                type="search"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
                placeholder="Search by order number, customer or email"
                className="pl-9"
              />
            </div>
            <Button
              variant={filtersActive ? 'primary' : 'secondary'}
              size="md"
              onClick={() => setShowFilters((v) => !v)}
              aria-expanded={showFilters}
              aria-controls="orders-filters"
            >
              <Filter aria-hidden="true" className="size-4" />
              Filters
            </Button>
          </div>
          {showFilters ? (
            <div id="orders-filters" className="grid gap-3 sm:grid-cols-4" role="group" aria-label="Filters">
              <Field label="Item type">
                <Select value={itemType} onChange={(e) => setItemType(e.target.value as 'all' | ItemType)}>
                  <option value="all">All items</option>
                  {itemTypes.map((t) => (
                    <option key={t} value={t}>
                      {catalog[t].cardTitle}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Start date">
                <Input
                  type="date"
                  value={startDate}
                  max={endDate || undefined}
                  onChange={(e) => setStartDate(e.target.value)}
                />
              </Field>
              <Field label="End date">
                <Input
                  type="date"
                  value={endDate}
                  min={startDate || undefined}
                  onChange={(e) => setEndDate(e.target.value)}
                />
              </Field>
              <div className="flex items-end">
                <Button
                  variant="ghost"
                  disabled={!filtersActive}
                  onClick={() => {
                    setItemType('all');
                    setStartDate('');
                    setEndDate('');
                  }}
                >
                  Clear filters
                </Button>
              </div>
            </div>
          ) : null}
          {selectedIds.length ? (
            <div
              className="flex flex-wrap items-center gap-3 rounded-md border border-brass-400/50 bg-brass-400/10 px-3 py-2"
              role="region"
              aria-label="Bulk actions"
            >
              <span className="text-sm font-semibold text-khaki-50" data-testid="selected-count">
                {selectedIds.length} selected
              </span>
              <label htmlFor="bulk-status" className="sr-only">
                New status for the selected orders
              </label>
              <select
                id="bulk-status"
                value={bulkStatus}
                onChange={(e) => setBulkStatus(e.target.value as OrderStatus | '')}
                className="h-8 rounded-md border border-olive-500 bg-ink-900 px-2 text-sm text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
              >
                <option value="">Change status to...</option>
                {bulkStatusChoices.map((s) => (
                  <option key={s} value={s}>
                    {orderStatusLabels[s]}
                  </option>
                ))}
              </select>
              <Button
                size="sm"
                disabled={!bulkStatus}
                loading={bulkBusy && !confirmBulkDelete}
                loadingText="Updating..."
                onClick={() => void applyBulkStatus()}
              >
                Apply
              </Button>
              <Button size="sm" variant="danger" disabled={bulkBusy} onClick={() => setConfirmBulkDelete(true)}>
                Delete Selected
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setRowSelection({})}>
                Clear selection
              </Button>
            </div>
          ) : null}
        </div>

        {orders.isError && !data ? (
          <div className="p-5">
            <ErrorState
              title="Orders could not be loaded"
              message={adminOrderMessages.fetchFailed(reasonOf(orders.error))}
              onRetry={() => void orders.refetch()}
              retrying={orders.isFetching}
            />
          </div>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Orders" aria-busy={orders.isFetching || undefined}>
              <thead className="border-b border-olive-700 text-xs uppercase tracking-wide text-khaki-300">
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const sortable = header.column.getCanSort();
                      const dir = header.column.getIsSorted();
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          className="px-2 py-2.5 font-semibold first:pl-4 last:pr-4"
                          aria-sort={
                            sortable
                              ? dir === 'asc'
                                ? 'ascending'
                                : dir === 'desc'
                                  ? 'descending'
                                  : 'none'
                              : undefined
                          }
                        >
                          {sortable ? (
                            <button
                              type="button"
                              onClick={header.column.getToggleSortingHandler()}
                              className="flex items-center gap-1 rounded uppercase focus-visible:outline-2 focus-visible:outline-brass-300"
                            >
                              {flexRender(header.column.columnDef.header, header.getContext())}
                              <SortIcon dir={dir} />
                            </button>
                          ) : (
                            flexRender(header.column.columnDef.header, header.getContext())
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody className="divide-y divide-olive-700">
                {orders.isPending
                  ? Array.from({ length: 6 }, (_, i) => (
                      <tr key={i}>
                        {columns.map((_c, j) => (
                          <td key={j} className="px-2 py-3 first:pl-4 last:pr-4">
                            <Skeleton className="h-5 w-full" />
                          </td>
                        ))}
                      </tr>
                    ))
                  : table.getRowModel().rows.map((row) => (
                      <tr
                        key={row.id}
                        data-order-number={row.original.orderNumber}
                        className={cn('hover:bg-olive-800/60', row.getIsSelected() && 'bg-brass-400/10')}
                      >
                        {row.getVisibleCells().map((cell) => (
                          <td key={cell.id} className="px-2 py-2.5 align-middle first:pl-4 last:pr-4">
                            {flexRender(cell.column.columnDef.cell, cell.getContext())}
                          </td>
                        ))}
                      </tr>
                    ))}
              </tbody>
            </table>
            {data && data.orders.length === 0 ? (
              <div className="flex flex-col items-center gap-2 px-6 py-12 text-center" data-testid="orders-empty">
                <FileQuestion aria-hidden="true" className="size-10 text-khaki-400" />
                <p className="font-semibold text-khaki-50">No orders match</p>
                <p className="text-sm text-khaki-300">
                  {search || filtersActive || status !== 'all'
                    ? 'Try another search, status or date range.'
                    : 'Quote requests from the shop appear here as they arrive.'}
                </p>
                {search || filtersActive || status !== 'all' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => {
                      setSearchText('');
                      setStatus('all');
                      setItemType('all');
                      setStartDate('');
                      setEndDate('');
                    }}
                  >
                    Show every order
                  </Button>
                ) : null}
              </div>
            ) : null}
          </div>
        )}

        {data && data.total > 0 ? (
          <nav
            aria-label="Pages"
            className="flex flex-wrap items-center justify-between gap-3 border-t border-olive-700 px-5 py-3 text-sm text-khaki-200"
          >
            <span data-testid="orders-range">
              {((data.page - 1) * data.pageSize + 1).toLocaleString('en-US')}–
              {Math.min(data.page * data.pageSize, data.total).toLocaleString('en-US')} of{' '}
              {data.total.toLocaleString('en-US')}
            </span>
            <div className="flex items-center gap-2">
              <label htmlFor="orders-page-size" className="text-xs text-khaki-300">
                Rows per page
              </label>
              <select
                id="orders-page-size"
                value={pageSize}
                onChange={(e) => setPageSize(Number(e.target.value))}
                className="h-8 rounded-md border border-olive-500 bg-ink-900 px-2 text-sm text-khaki-50"
              >
                {[10, 25, 50, 100].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
              <Button
                variant="ghost"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
                aria-label="Previous page"
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
              </Button>
              <span>
                Page {data.page} of {Math.max(1, data.totalPages)}
              </span>
              <Button
                variant="ghost"
                size="sm"
                disabled={page >= data.totalPages}
                onClick={() => setPage((p) => p + 1)}
                aria-label="Next page"
              >
                <ChevronRight aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </nav>
        ) : null}
      </Card>

      {modal ? <OrderModal kind={modal.kind} order={modal.order} onClose={() => setModal(null)} /> : null}
      {settingsOpen ? <SettingsModal onClose={() => setSettingsOpen(false)} /> : null}
      {detailsId ? <OrderDetails orderId={detailsId} onClose={() => setDetailsId(null)} /> : null}
      {confirmBulkDelete ? (
        <Modal
          open
          size="sm"
          onOpenChange={(open) => !open && setConfirmBulkDelete(false)}
          title="Delete Orders"
          description={`${selectedIds.length} selected ${selectedIds.length === 1 ? 'order' : 'orders'} will be removed for good.`}
          footer={
            <>
              <Button variant="ghost" onClick={() => setConfirmBulkDelete(false)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                loading={bulkBusy}
                loadingText="Deleting..."
                onClick={() => void deleteSelected()}
              >
                Delete {selectedIds.length} {selectedIds.length === 1 ? 'Order' : 'Orders'}
              </Button>
            </>
          }
        >
          <p className="text-sm text-khaki-200">This cannot be undone.</p>
        </Modal>
      ) : null}
    </div>
  );
}
