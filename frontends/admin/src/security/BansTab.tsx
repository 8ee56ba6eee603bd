// Bans (spec §2.3): IP, reason, banned date, expiry ("Never" when none), banned by, and Unban; the Ban IP
// modal (IP and reason required, the button disabled until both are set; 1 hour by default).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldBan } from 'lucide-react';
import { banDuration, banDurations, securityMessages } from '@shop/contracts';
import { Button, Cell, DataTable, Field, Input, Modal, Select, Skeleton, Textarea, toast } from '@shop/ui';
import { banIp, fetchBannedIps, securityKeys, unbanIp } from './api.js';
import { formatDateTime, reasonOf } from './format.js';
import { EmptyState, SecurityError } from './parts.js';

function BanIpModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [ip, setIp] = useState('');
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<(typeof banDurations)[number]>('1h');
  const ban = useMutation({
    mutationFn: () =>
      banIp({ ip: ip.trim(), reason: reason.trim(), duration: duration === 'permanent' ? '' : duration }),
    onSuccess: () => {
      toast.success(securityMessages.banned);
      setIp('');
      setReason('');
      setDuration('1h');
      onOpenChange(false);
      void queryClient.invalidateQueries({ queryKey: securityKeys.all });
    },
    onError: (error) => toast.error(securityMessages.banFailed(reasonOf(error))),
  });
  const ready = ip.trim() !== '' && reason.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && !ban.isPending) ban.mutate();
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Ban IP Address"
      description="Requests from this address (or range) are refused on every page and call of the shop."
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            type="submit"
            form="ban-ip-form"
            disabled={!ready}
            loading={ban.isPending}
            loadingText="Banning..."
          >
            Ban IP
          </Button>
        </>
      }
    >
      <form id="ban-ip-form" className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <Field label="IP address" hint="IPv4, IPv6 or a CIDR range, e.g. 203.0.113.7 or 198.51.100.0/24" required>
          <Input value={ip} onChange={(e) => setIp(e.target.value)} autoComplete="off" required />
        </Field>
        <Field label="Reason" required>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required />
        </Field>
        <Field label="Duration">
          <Select value={duration} onChange={(e) => setDuration(e.target.value as (typeof banDurations)[number])}>
            {banDurations.map((d) => (
              <option key={d} value={d}>
                {banDuration.labels[d]}
              </option>
            ))}
          </Select>
        </Field>
      </form>
    </Modal>
  );
}

export function BansTab() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const bans = useQuery({ queryKey: securityKeys.bans, queryFn: ({ signal }) => fetchBannedIps(signal) });
  const unban = useMutation({
    mutationFn: (id: string) => unbanIp(id),
    onSuccess: () => {
      toast.success(securityMessages.unbanned);
      void queryClient.invalidateQueries({ queryKey: securityKeys.all });
    },
    onError: (error) => toast.error(securityMessages.unbanFailed(reasonOf(error))),
  });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setOpen(true)}>
          <ShieldBan aria-hidden="true" className="size-4" />
          Ban IP
        </Button>
      </div>
      <BanIpModal open={open} onOpenChange={setOpen} />
      {bans.isError && !bans.data ? (
        <SecurityError error={bans.error} onRetry={() => void bans.refetch()} retrying={bans.isFetching} />
      ) : !bans.data ? (
        <Skeleton className="h-40" />
      ) : bans.data.length === 0 ? (
        <EmptyState>No banned IP addresses. Use Ban IP to block an address or range.</EmptyState>
      ) : (
        <DataTable
          data-testid="banned-ips"
          caption="Banned IP addresses"
          columns={['IP', 'Reason', 'Banned', 'Expires', 'Banned by', { label: 'Actions', hidden: true }]}
        >
          {bans.data.map((b) => (
            <tr key={b.id} data-ip={b.ip}>
              <Cell className="font-mono text-khaki-50">{b.ip}</Cell>
              <Cell className="max-w-xs break-words text-khaki-100">{b.reason}</Cell>
              <Cell className="whitespace-nowrap text-khaki-200">{formatDateTime(b.bannedDate)}</Cell>
              <Cell className="whitespace-nowrap text-khaki-200">
                {b.expiresAt ? formatDateTime(b.expiresAt) : 'Never'}
              </Cell>
              <Cell className="text-khaki-200">{b.bannedBy}</Cell>
              <Cell align="right">
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => unban.mutate(b.id)}
                  loading={unban.isPending && unban.variables === b.id}
                  loadingText="Unbanning..."
                  aria-label={`Unban ${b.ip}`}
                >
                  Unban
                </Button>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
