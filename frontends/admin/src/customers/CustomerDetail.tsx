// The customer detail view (admin part B §2.2): total spent, total orders, average order value, days
// between orders; contact info; first and last order dates; preferred item; and the order history
// (order number, item type, total, quantity, status, date); the privacy requests (export, erasure).
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { catalog, customerStatusLabels, formatMoney, orderStatusLabels } from '@shop/contracts';
import { Badge, Button, Card, CardBody, ErrorState, Skeleton } from '@shop/ui';
import { customerKeys, fetchCustomer } from './api.js';
import { shortDate, statusTone } from './format.js';
import { PrivacyActions } from './PrivacyActions.js';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <CardBody>
        <p className="text-xs font-semibold uppercase tracking-wide text-khaki-300">{label}</p>
        <p className="font-display text-2xl font-bold text-khaki-50" data-testid={testId}>
          {value}
        </p>
      </CardBody>
    </Card>
  );
}

export function CustomerDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const detail = useQuery({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => fetchCustomer(id, signal) });
  const c = detail.data;
  return (
    <div className="flex flex-col gap-4" data-testid="customer-detail">
      <Button variant="ghost" className="self-start" onClick={onBack}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Customers
      </Button>
      {detail.isError ? (
        <ErrorState
          title="Error Loading Customer"
          message={detail.error instanceof Error ? detail.error.message : undefined}
          onRetry={() => void detail.refetch()}
          retrying={detail.isFetching}
        />
      ) : !c ? (
        <div className="flex flex-col gap-2">
          <Skeleton className="h-10" />
          <Skeleton className="h-24" />
          <Skeleton className="h-40" />
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">
              {c.name || 'Unnamed customer'}
            </h2>
            <Badge tone={statusTone[c.status]}>{customerStatusLabels[c.status]}</Badge>
          </div>
          <PrivacyActions customer={c} />
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Figure label="Total Spent" value={formatMoney(c.totalSpent)} testId="detail-total-spent" />
            <Figure label="Total Orders" value={String(c.totalOrders)} testId="detail-total-orders" />
            <Figure
              label="Average Order Value"
              value={formatMoney(c.averageOrderValue)}
              testId="detail-average-order"
            />
            <Figure
              label="Days Between Orders"
              value={c.lifetimeStats.avgDaysBetweenOrders ? c.lifetimeStats.avgDaysBetweenOrders.toFixed(1) : '–'}
              testId="detail-days-between"
            />
          </div>
          <div className="grid gap-3 lg:grid-cols-2">
            <Card>
              <CardBody>
                <h3 className="font-display text-lg font-bold text-khaki-50">Contact Info</h3>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-khaki-300">Email</dt>
                  <dd className="text-khaki-100" data-testid="detail-email">
                    {c.email}
                  </dd>
                  <dt className="text-khaki-300">Phone</dt>
                  <dd className="text-khaki-100">{c.phone || 'Not given'}</dd>
                </dl>
              </CardBody>
            </Card>
            <Card>
              <CardBody>
                <h3 className="font-display text-lg font-bold text-khaki-50">Order Activity</h3>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-khaki-300">First Order</dt>
                  <dd className="text-khaki-100">{c.firstOrderDate ? shortDate(c.firstOrderDate) : '–'}</dd>
                  <dt className="text-khaki-300">Last Order</dt>
                  <dd className="text-khaki-100">{c.lastOrderDate ? shortDate(c.lastOrderDate) : '–'}</dd>
                  <dt className="text-khaki-300">Preferred Item</dt>
                  <dd className="text-khaki-100">
                    {c.preferredItemType ? catalog[c.preferredItemType].cardTitle : '–'}
                  </dd>
                  <dt className="text-khaki-300">Completed Orders</dt>
                  <dd className="text-khaki-100">{c.lifetimeStats.completedOrders}</dd>
                </dl>
              </CardBody>
            </Card>
          </div>
          <Card className="overflow-x-auto">
            <h3 className="px-4 pt-4 font-display text-lg font-bold text-khaki-50">Order History</h3>
            <table className="mt-2 w-full text-left text-sm" data-testid="customer-order-history">
              <thead className="text-xs uppercase text-khaki-300">
                <tr>
                  <th scope="col" className="p-3">
                    Order
                  </th>
                  <th scope="col" className="p-3">
                    Item
                  </th>
                  <th scope="col" className="p-3">
                    Total
                  </th>
                  <th scope="col" className="p-3">
                    Quantity
                  </th>
                  <th scope="col" className="p-3">
                    Status
                  </th>
                  <th scope="col" className="p-3">
                    Date
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.orders.map((o) => (
                  <tr key={o.id} className="border-t border-olive-700">
                    <td className="p-3 font-semibold text-khaki-50">#{o.orderNumber}</td>
                    <td className="p-3 text-khaki-100">{catalog[o.itemType].cardTitle}</td>
                    <td className="p-3 text-khaki-100">{formatMoney(o.total)}</td>
                    <td className="p-3 text-khaki-100">{o.quantity}</td>
                    <td className="p-3 text-khaki-100">{orderStatusLabels[o.status]}</td>
                    <td className="p-3 text-khaki-100">{shortDate(o.submittedDate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </div>
  );
}
