// The more-actions menu of a row (spec §2): a Radix dropdown menu, so it opens from the keyboard, moves
// with the arrow keys, closes on Escape and gives focus back to its button.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { BadgePercent, Mail, MoreHorizontal, NotebookPen, Trash2, Truck } from 'lucide-react';
import type { OrderModalKind } from './modals.js';

const items: Array<{ kind: OrderModalKind; label: string; icon: typeof Mail; danger?: boolean }> = [
  { kind: 'tracking', label: 'Add Tracking', icon: Truck },
  { kind: 'email', label: 'Send Email', icon: Mail },
  { kind: 'discount', label: 'Apply Discount', icon: BadgePercent },
  { kind: 'notes', label: 'Update Notes', icon: NotebookPen },
  { kind: 'delete', label: 'Delete Order', icon: Trash2, danger: true },
];

export function RowMenu({ orderNumber, onChoose }: { orderNumber: string; onChoose: (kind: OrderModalKind) => void }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`More actions for order #${orderNumber}`}
        className="flex size-8 items-center justify-center rounded-md text-khaki-200 hover:bg-olive-700 hover:text-khaki-50 focus-visible:outline-2 focus-visible:outline-brass-300"
      >
        <MoreHorizontal aria-hidden="true" className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-md border border-olive-500 bg-olive-900 p-1 text-sm text-khaki-100 shadow-xl shadow-black/60"
        >
          {items.map(({ kind, label, icon: Icon, danger }) => (
            <DropdownMenu.Item
              key={kind}
              onSelect={() => onChoose(kind)}
              className={
                'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-olive-700 ' +
                (danger ? 'text-alert-400' : '')
              }
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
