// The Support view of the back office (admin §2 Support messages, §5 reply rules, §8 errors): summary
// counters, search, status and priority filters, en-US short dates, 'Failed to fetch messages' in the
// list; a detail with the conversation, a reply box, a status dropdown, Mark Resolved and Delete (with
// confirmation). Paging, search and filters run on the server. A second tab lists returns and moves them.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeft, CheckCircle2, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  supportPriorities,
  supportStatuses,
  supportTexts,
  type SupportMessage,
  type SupportPriority,
  type SupportStatus,
} from '@shop/contracts';
import { Alert, Badge, Button, Card, Field, Input, Modal, Select, Skeleton, Textarea, cn } from '@shop/ui';
import { deleteMessage, fetchInbox, replyToMessage, supportKeys, updateMessage, type InboxFilters } from './api.js';
import { shortDate } from './format.js';
import { ReturnsPanel } from './ReturnsPanel.js';

export const statusNames: Record<SupportStatus, string> = {
  open: 'Open',
  in_progress: 'In Progress',
  resolved: 'Resolved',
  closed: 'Closed',
};
const priorityNames: Record<SupportPriority, string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };
const priorityTone = { low: 'neutral', normal: 'neutral', high: 'caution', urgent: 'alert' } as const;

function Counters({ summary }: { summary: Record<string, number> | undefined }) {
  const items: [string, string][] = [
    ['total', 'Total'],
    ['open', 'Open'],
    ['inProgress', 'In Progress'],
    ['resolved', 'Resolved'],
    ['closed', 'Closed'],
    ['high', 'High'],
    ['urgent', 'Urgent'],
    ['overdue', 'Overdue'],
  ];
  return (
    <dl className="grid grid-cols-4 gap-2 lg:grid-cols-8" data-testid="support-summary">
      {items.map(([key, label]) => (
        <Card key={key} className="p-3 text-center">
          <dt className="text-xs uppercase tracking-wide text-khaki-300">{label}</dt>
          <dd
            className={cn(
              'mt-1 text-2xl font-bold',
              key === 'overdue' && summary?.[key] ? 'text-alert-400' : 'text-khaki-50',
            )}
            data-testid={`summary-${key}`}
          >
            {summary ? summary[key] : '–'}
          </dd>
        </Card>
      ))}
    </dl>
  );
}

function Detail({ message, onBack }: { message: SupportMessage; onBack: () => void }) {
  const client = useQueryClient();
  const [current, setCurrent] = useState(message);
  const [reply, setReply] = useState('');
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: ['support', 'inbox'] });

  const status = useMutation({
    mutationFn: (next: SupportStatus) => updateMessage(current.id, { status: next }),
    onSuccess: (m) => {
      setCurrent(m);
      setError('');
      void refresh();
    },
    onError: () => setError(supportTexts.updateFailed),
  });
  const send = useMutation({
    mutationFn: () => replyToMessage(current.id, reply.trim()),
    onSuccess: (m) => {
      setCurrent(m);
      setReply('');
      setError('');
      void refresh();
    },
    onError: () => setError(supportTexts.responseFailed),
  });
  const remove = useMutation({
    mutationFn: () => deleteMessage(current.id),
    onSuccess: () => {
      setConfirming(false);
      void refresh();
      onBack();
    },
    onError: () => {
      setConfirming(false);
      setError(supportTexts.deleteFailed);
    },
  });

  return (
    <div className="flex flex-col gap-4" data-testid="support-detail">
      <Button variant="ghost" className="self-start" onClick={onBack}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Messages
      </Button>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Card className="p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h3 className="font-display text-xl font-bold text-khaki-50">{current.subject}</h3>
            <p className="text-sm text-khaki-300">
              {current.name} &lt;{current.email}&gt; · {current.reference}
              {current.orderNumber ? ` · Order ${current.orderNumber}` : ''} · {shortDate(current.submittedDate)}
            </p>
            <p className={cn('text-sm', current.overdue ? 'font-semibold text-alert-400' : 'text-khaki-300')}>
              {current.overdue ? 'Overdue: ' : 'Respond by '}
              {shortDate(current.respondBy)}
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <Field label="Status">
              <Select
                value={current.status}
                disabled={status.isPending}
                onChange={(e) => status.mutate(e.target.value as SupportStatus)}
              >
                {supportStatuses.map((s) => (
                  <option key={s} value={s}>
                    {statusNames[s]}
                  </option>
                ))}
              </Select>
            </Field>
            <Button
              variant="secondary"
              disabled={status.isPending || current.status === 'resolved'}
              onClick={() => status.mutate('resolved')}
            >
              <CheckCircle2 aria-hidden="true" className="size-4" /> Mark Resolved
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" className="size-4" /> Delete
            </Button>
          </div>
        </div>
        <ol className="mt-4 flex flex-col gap-3" aria-label="Conversation">
          <li className="rounded-md border border-olive-600 bg-ink-900 p-3">
            <p className="text-xs text-khaki-300">
              {current.name} · {shortDate(current.submittedDate)}
            </p>
            <p className="mt-1 whitespace-pre-wrap text-khaki-100">{current.message}</p>
          </li>
          {current.responses.map((r) => (
            <li
              key={r.id}
              className={cn(
                'rounded-md border p-3',
                r.isFromAdmin ? 'ml-6 border-brass-400/50 bg-brass-400/10' : 'border-olive-600 bg-ink-900',
              )}
              data-testid="support-response"
            >
              <p className="text-xs text-khaki-300">
                {r.authorName} · {shortDate(r.timestamp)}
              </p>
              <p className="mt-1 whitespace-pre-wrap text-khaki-100">{r.content}</p>
            </li>
          ))}
        </ol>
        <form
          className="mt-4 flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (reply.trim() && !send.isPending) send.mutate();
          }}
        >
          <Field label="Reply">
            <Textarea rows={4} value={reply} onChange={(e) => setReply(e.target.value)} />
          </Field>
          <Button type="submit" className="self-end" disabled={!reply.trim() || send.isPending}>
            <Send aria-hidden="true" className="size-4" /> {send.isPending ? 'Sending...' : 'Send Reply'}
          </Button>
        </form>
      </Card>
      <Modal
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this message?"
        description={`The message ${current.reference} and its conversation will be removed. This cannot be undone.`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? 'Deleting...' : 'Delete Message'}
            </Button>
          </>
        }
      />
    </div>
  );
}

function Inbox() {
  const [filters, setFilters] = useState<InboxFilters>({ search: '', status: 'all', priority: 'all', page: 1 });
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<SupportMessage | null>(null);
  const inbox = useQuery({
    queryKey: supportKeys.inbox(filters),
    queryFn: ({ signal }) => fetchInbox(filters, signal),
    placeholderData: keepPreviousData,
  });

  if (open) return <Detail message={open} onBack={() => setOpen(null)} />;
  const data = inbox.data;
  return (
    <div className="flex flex-col gap-4">
      <Counters summary={data?.summary} />
      <form
        className="flex flex-wrap items-end gap-3"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters((f) => ({ ...f, search, page: 1 }));
        }}
      >
        <Field label="Search messages" className="min-w-60 flex-1">
          <Input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, email, subject, reference..."
          />
        </Field>
        <Field label="Status">
          <Select
            value={filters.status}
            onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value as InboxFilters['status'], page: 1 }))}
          >
            <option value="all">All statuses</option>
            {supportStatuses.map((s) => (
              <option key={s} value={s}>
                {statusNames[s]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Priority">
          <Select
            value={filters.priority}
            onChange={(e) =>
              setFilters((f) => ({ ...f, priority: e.target.value as InboxFilters['priority'], page: 1 }))
            }
          >
            <option value="all">All priorities</option>
            {supportPriorities.map((p) => (
              <option key={p} value={p}>
                {priorityNames[p]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <Card className="overflow-x-auto">
        {inbox.isError ? (
          <p className="p-6 text-center text-alert-400" role="alert" data-testid="support-error">
            {supportTexts.fetchFailed}
          </p>
        ) : !data ? (
          <div className="flex flex-col gap-2 p-4">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : data.messages.length === 0 ? (
          <p className="p-6 text-center text-khaki-300">
            No messages match. Messages from the Contact Support page appear here.
          </p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="support-list">
            <thead className="text-xs uppercase text-khaki-300">
              <tr>
                <th className="p-3">Date</th>
                <th className="p-3">From</th>
                <th className="p-3">Subject</th>
                <th className="p-3">Priority</th>
                <th className="p-3">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.messages.map((m) => (
                <tr key={m.id} className="border-t border-olive-700 hover:bg-olive-800">
                  <td className="p-3 whitespace-nowrap text-khaki-200">{shortDate(m.submittedDate)}</td>
                  <td className="p-3 text-khaki-100">
                    {m.name}
                    <br />
                    <span className="text-xs text-khaki-300">{m.email}</span>
                  </td>
                  <td className="p-3">
                    <button
                      type="button"
                      className="text-left font-semibold text-khaki-50 underline-offset-2 hover:underline"
                      onClick={() => setOpen(m)}
                    >
                      {m.subject}
                    </button>
                    <span className="block text-xs text-khaki-300">{m.reference}</span>
                  </td>
                  <td className="p-3">
                    <Badge tone={priorityTone[m.priority]}>{priorityNames[m.priority]}</Badge>
                  </td>
                  <td className="p-3">
                    <Badge tone={m.status === 'open' ? 'brass' : m.status === 'in_progress' ? 'caution' : 'ok'}>
                      {statusNames[m.status]}
                    </Badge>
                    {m.overdue ? (
                      <span className="ml-2 inline-flex items-center gap-1 text-xs font-semibold text-alert-400">
                        <AlertTriangle aria-hidden="true" className="size-3" />
                        Overdue
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
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
          Page {data.page} of {data.totalPages}
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

export function SupportView() {
  const [tab, setTab] = useState<'messages' | 'returns'>('messages');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 className="font-display text-2xl font-bold uppercase tracking-wide text-khaki-50">Support</h2>
        <div role="tablist" aria-label="Support" className="flex gap-1">
          {(['messages', 'returns'] as const).map((t) => (
            <Button
              key={t}
              role="tab"
              aria-selected={tab === t}
              variant={tab === t ? 'primary' : 'ghost'}
              size="sm"
              onClick={() => setTab(t)}
            >
              {t === 'messages' ? 'Messages' : 'Returns'}
            </Button>
          ))}
        </div>
      </div>
      {tab === 'messages' ? <Inbox /> : <ReturnsPanel />}
    </div>
  );
}
