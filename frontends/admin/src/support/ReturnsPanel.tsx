// Returns in the back office: newest first, a status filter, the photos, and the next statuses a return
// may take (requested -> approved (label sent) -> received -> refunded or replaced; rejected while open).
// Each move is emailed to the customer by the server.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  returnConditionLabels,
  returnReasonLabels,
  returnStatusLabels,
  returnStatusMoves,
  returnStatuses,
  type ReturnRecord,
  type ReturnStatus,
} from '@shop/contracts';
import { Alert, Badge, Button, Card, Field, Input, Select, Skeleton } from '@shop/ui';
import { fetchReturns, moveReturn, supportKeys } from './api.js';
import { shortDate } from './format.js';

function ReturnCard({ item }: { item: ReturnRecord }) {
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const move = useMutation({
    mutationFn: (status: ReturnStatus) => moveReturn(item.id, status, note.trim() || undefined),
    onSuccess: () => {
      setNote('');
      void client.invalidateQueries({ queryKey: ['support', 'returns'] });
    },
  });
  const next = returnStatusMoves[item.status];
  return (
    <Card className="p-4" data-testid="return-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold text-khaki-50">
            {item.reference} · Order {item.orderNumber}
          </p>
          <p className="text-sm text-khaki-300">
            {item.customerName} &lt;{item.email}&gt; · {shortDate(item.requestedAt)}
          </p>
        </div>
        <Badge
          tone={
            item.status === 'rejected'
              ? 'alert'
              : item.status === 'refunded' || item.status === 'replaced'
                ? 'ok'
                : 'brass'
          }
          data-testid="return-status"
        >
          {returnStatusLabels[item.status]}
        </Badge>
      </div>
      <p className="mt-2 text-sm text-khaki-200">
        {returnReasonLabels[item.reason]} · {returnConditionLabels[item.itemCondition]}
      </p>
      <p className="mt-1 whitespace-pre-wrap text-khaki-100">{item.description}</p>
      {item.photos.length ? (
        <ul className="mt-2 flex flex-wrap gap-2">
          {item.photos.map((p) => (
            <li key={p.id}>
              <a href={p.url} target="_blank" rel="noreferrer" className="text-sm text-brass-300 underline">
                {p.filename}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {move.isError ? (
        <Alert tone="error" className="mt-2">
          {move.error.message}
        </Alert>
      ) : null}
      {next.length ? (
        <div className="mt-3 flex flex-wrap items-end gap-2">
          <Field label="Note for the customer (optional)" className="min-w-60 flex-1">
            <Input value={note} onChange={(e) => setNote(e.target.value)} />
          </Field>
          {next.map((s) => (
            <Button
              key={s}
              size="sm"
              variant={s === 'rejected' ? 'danger' : 'secondary'}
              disabled={move.isPending}
              onClick={() => move.mutate(s)}
            >
              {s === 'approved' ? 'Approve and Send Label' : `Mark ${returnStatusLabels[s]}`}
            </Button>
          ))}
        </div>
      ) : null}
    </Card>
  );
}

export function ReturnsPanel() {
  const [status, setStatus] = useState<ReturnStatus | 'all'>('all');
  const returns = useQuery({
    queryKey: supportKeys.returns(status),
    queryFn: ({ signal }) => fetchReturns(status, signal),
  });
  return (
    <div className="flex flex-col gap-3">
      <Field label="Return status" className="max-w-xs">
        <Select value={status} onChange={(e) => setStatus(e.target.value as ReturnStatus | 'all')}>
          <option value="all">All returns</option>
          {returnStatuses.map((s) => (
            <option key={s} value={s}>
              {returnStatusLabels[s]}
            </option>
          ))}
        </Select>
      </Field>
      {returns.isError ? (
        <Alert tone="error">Failed to fetch returns</Alert>
      ) : !returns.data ? (
        <Skeleton className="h-24" />
      ) : returns.data.returns.length === 0 ? (
        <p className="text-khaki-300">
          No return requests yet. Requests from the Returns and Exchanges page appear here.
        </p>
      ) : (
        returns.data.returns.map((item) => <ReturnCard key={item.id} item={item} />)
      )}
    </div>
  );
}
