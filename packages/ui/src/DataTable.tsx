// The back office's lists as tables: one header row of `th scope="col"`, the caption screen readers
// announce, and the cell padding, written once. Plain markup rather than a table library: the admin's
// first load stays small, and sorting or paging stays with the view that needs it.
import { createContext, useContext, type ReactNode, type TableHTMLAttributes, type TdHTMLAttributes } from 'react';
import { cn } from './cn.js';

/** A header: its text, or the text with how it shows. */
export type DataColumn =
  | string
  | {
      label: string;
      /** Read by screen readers only (the column of row buttons: "Actions"). */
      hidden?: boolean;
      /** Right-aligned, as numbers and row buttons are. */
      align?: 'right';
    };

/**
 * `framed`: its own bordered box with a dark header (orders, security). `raised`: the same with a lighter
 * header and row lines (marketing). `card`: inside a Card that scrolls it, rows lined by the view.
 */
export type DataTableLook = 'framed' | 'raised' | 'card';

const looks: Record<DataTableLook, { frame?: string; head: string; body?: string; cell: string }> = {
  framed: {
    frame: 'overflow-x-auto rounded-lg border border-olive-700',
    head: 'bg-olive-900 text-xs uppercase tracking-wide text-khaki-300',
    body: 'divide-y divide-olive-700',
    cell: 'px-3 py-2',
  },
  raised: {
    frame: 'overflow-x-auto rounded-lg border border-olive-700',
    head: 'bg-olive-800 text-xs uppercase tracking-wide text-khaki-300',
    body: 'divide-y divide-olive-800',
    cell: 'px-3 py-2',
  },
  card: { head: 'text-xs uppercase text-khaki-300', cell: 'px-2 py-3' },
};

// Cells take their padding from the table they are in, so a view never repeats it.
const CellPadding = createContext(looks.framed.cell);

export interface DataTableProps extends TableHTMLAttributes<HTMLTableElement> {
  columns: readonly DataColumn[];
  /** Announced by screen readers, not shown (the view's heading already says it). */
  caption?: string;
  look?: DataTableLook;
  /** Classes of the bordered box around the table (framed and raised looks). */
  frameClassName?: string;
  /** The rows (`tr`s of `Cell`s). */
  children: ReactNode;
}

export function DataTable({
  columns,
  caption,
  look = 'framed',
  frameClassName,
  className,
  children,
  ...rest
}: DataTableProps) {
  const { frame, head, body, cell } = looks[look];
  const table = (
    <table className={cn('w-full text-left text-sm', className)} {...rest}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className={head}>
        <tr>
          {columns.map((column) => {
            const { label, hidden, align } = typeof column === 'string' ? { label: column } : column;
            return (
              <th key={label} scope="col" className={cn(cell, align === 'right' && 'text-right')}>
                {hidden ? <span className="sr-only">{label}</span> : label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody className={body}>
        <CellPadding value={cell}>{children}</CellPadding>
      </tbody>
    </table>
  );
  return frame ? <div className={cn(frame, frameClassName)}>{table}</div> : table;
}

export interface CellProps extends TdHTMLAttributes<HTMLTableCellElement> {
  /** Right-aligned, as numbers and row buttons are. */
  align?: 'right';
}

/** A body cell, padded as its table's header is. */
export function Cell({ align, className, ...rest }: CellProps) {
  return <td className={cn(useContext(CellPadding), align === 'right' && 'text-right', className)} {...rest} />;
}
